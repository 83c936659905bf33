/**
 * `endpoint-studio billing pods|serverless|network-volume`: billing history with the flags and
 * defaults of the service's own command-line client (`--bucket-size day`; pods grouped by `gpuId`,
 * serverless by `endpointId`), printed as a table or as the service's JSON answer.
 * Exit codes: 0 answered (also when there is no spend), 1 the service refused or failed,
 * 2 usage error or no key.
 */
import { configFromEnvironment, createApiClient, type ApiClient, type Environment } from '../core/api';
import { BUCKET_SIZES } from '../core/billing/buckets';
import { formatAmount } from '../core/billing/format';
import {
  checkBillingRequest,
  fetchBilling,
  KINDS,
  type BillingKind,
  type BillingRequest,
  type BillingRequestInput,
  type BillingResponse,
} from '../core/billing/query';
import type { CliIo } from './inputs';

export interface BillingIo extends CliIo {
  /** Defaults to `process.env`. */
  env?: Environment;
}

export const BILLING_HELP = `Usage:
  endpoint-studio billing pods [--grouping podId|gpuId] [--pod-id ID] [--gpu-id ID] [window] [--output table|json]
  endpoint-studio billing serverless [--grouping endpointId|podId|gpuId] [--endpoint-id ID] [--gpu-id ID] [window] [--output table|json]
  endpoint-studio billing network-volume [window] [--output table|json]

window: --bucket-size ${BUCKET_SIZES.join('|')} (default day)
        --start-time RFC3339 (default: 30 days ago)  --end-time RFC3339 (default: now)
The service widens the window to whole buckets. Grouping defaults: pods gpuId, serverless endpointId.
--output table (default) prints one row per bucket and group with each cost component in USD;
json prints the service's answer as it came.
Exit status: 0 answered, 1 the service refused or failed, 2 usage error or no API key.`;

const SUBCOMMANDS: Record<string, BillingKind> = { pods: 'pods', serverless: 'serverless', 'network-volume': 'networkVolumes' };

/** Flag → request field; which kinds take which is checked by the request check. */
const FLAGS: Record<string, keyof BillingRequestInput> = {
  '--bucket-size': 'bucketSize',
  '--start-time': 'startTime',
  '--end-time': 'endTime',
  '--grouping': 'grouping',
  '--pod-id': 'podId',
  '--endpoint-id': 'endpointId',
  '--gpu-id': 'gpuId',
};

function usage(io: BillingIo, problem: string): number {
  io.err(`endpoint-studio billing: ${problem}\n\n${BILLING_HELP}`);
  return 2;
}

export async function runBilling(args: string[], io: BillingIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(`${BILLING_HELP}\n`);
    return 0;
  }
  const [sub, ...rest] = args;
  const kind = sub === undefined ? undefined : SUBCOMMANDS[sub];
  if (!kind)
    return usage(io, sub === undefined ? 'name what to bill: pods, serverless or network-volume' : `unknown billing command: ${sub}`);
  const input: BillingRequestInput = { kind };
  let output = 'table';
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (flag === '--output' || flag === '-o') {
      output = value ?? '';
      if (output !== 'table' && output !== 'json') return usage(io, `--output takes table or json; got: ${value ?? '(nothing)'}`);
      continue;
    }
    const field = FLAGS[flag];
    if (!field) return usage(io, `unknown option for billing ${sub}: ${flag}`);
    if (value === undefined || value.startsWith('--')) return usage(io, `${flag} needs a value`);
    if (!KINDS[kind].filters.includes(field as never) && ['podId', 'endpointId', 'gpuId'].includes(field))
      return usage(io, `billing ${sub} has no ${flag} flag`);
    if (field === 'grouping' && KINDS[kind].groupings.length === 0) return usage(io, `billing ${sub} has no --grouping flag`);
    input[field] = value;
  }
  const checked = checkBillingRequest(input);
  if ('error' in checked) return usage(io, checked.error);

  const client = clientFor(io);
  if (typeof client === 'number') return client;
  let response: BillingResponse;
  try {
    response = await fetchBilling(client, checked.request);
  } catch (error) {
    io.err(`endpoint-studio billing: billing failed: ${client.redact(error instanceof Error ? error.message : String(error))}`);
    return 1;
  }
  io.out(output === 'json' ? `${JSON.stringify(response, null, 2)}\n` : renderTable(checked.request, response));
  return 0;
}

function clientFor(io: BillingIo): ApiClient | number {
  const config = configFromEnvironment(io.env ?? process.env);
  if (!config.apiKey) {
    io.err('endpoint-studio billing: no API key: set ENDPOINT_STUDIO_API_KEY (or RUNPOD_API_KEY)');
    return 2;
  }
  try {
    return createApiClient({ ...config, userAgent: 'endpoint-studio-cli' });
  } catch (error) {
    io.err(`endpoint-studio billing: ${(error as Error).message}`);
    return 2;
  }
}

/** A heading with the resolved window, then aligned columns, then the totals line. */
export function renderTable(request: BillingRequest, response: BillingResponse): string {
  const info = KINDS[request.kind];
  const { query, totals } = response.metadata;
  const field = info.groupField(request.grouping);
  const grouped = request.grouping ? `, grouped by ${request.grouping}` : '';
  const filters = (['podId', 'endpointId', 'gpuId'] as const)
    .filter((f) => request[f])
    .map((f) => `, ${f} ${request[f]}`)
    .join('');
  const heading = `${info.label.toLowerCase()} billing (USD), ${query.startTime} to ${query.endTime} by ${query.bucketSize}${grouped}${filters}`;
  if (response.records.length === 0) return `${heading}\nno spend in this window\n`;
  const columns = ['startTime', ...(field ? [field] : []), ...info.components.map((c) => c.key), 'totalAmount'];
  const titles = ['START (UTC)', ...(field ? [field.toUpperCase()] : []), ...info.components.map((c) => c.label.toUpperCase()), 'TOTAL'];
  const money = new Set([...info.components.map((c) => c.key), 'totalAmount']);
  const text = (record: Record<string, unknown>, column: string): string => {
    const value = record[column];
    if (money.has(column)) return formatAmount(typeof value === 'number' ? value : 0);
    return String(value ?? '');
  };
  const rows = response.records.map((r) => columns.map((c) => text(r, c)));
  const totalRow = columns.map((c, i) => (i === 0 ? 'TOTAL' : money.has(c) ? formatAmount(totals[c] ?? 0) : ''));
  const widths = titles.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i].length), totalRow[i].length));
  // Amounts line up on the right, ids and times on the left.
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (money.has(columns[i]) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return `${[heading, line(titles), ...rows.map(line), line(totalRow)].join('\n')}\n`;
}
