/**
 * `endpoint-studio billing pods|serverless|network-volume`: billing history with the flags and
 * defaults of the service's own command-line client (`--bucket-size day`; pods grouped by `gpuId`,
 * serverless by `endpointId`), printed as a table or as the service's JSON answer.
 * Exit codes: 0 answered (also when there is no spend), 1 the service refused or failed,
 * 2 usage error or no key.
 */
import { BUCKET_SIZES } from '../core/billing/buckets';
import { formatAmount } from '../core/billing/format';
import { KINDS, type BillingFilter, type BillingKind, type BillingRequest, type BillingResponse } from '../core/billing/query';
import { billingRequestOf, queryBilling, type QueryBillingInput } from '../core/operations';
import { readCommandLine, usageError } from './args';
import { serviceClient, type ServiceIo } from './service';

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

const SUBCOMMANDS = new Map<string, BillingKind>([
  ['pods', 'pods'],
  ['serverless', 'serverless'],
  ['network-volume', 'networkVolumes'],
]);

/** Flag → request field; which kinds take which is checked here and by the request check. */
const FIELD_FLAGS = {
  'bucket-size': 'bucketSize',
  'start-time': 'startTime',
  'end-time': 'endTime',
  grouping: 'grouping',
  'pod-id': 'podId',
  'endpoint-id': 'endpointId',
  'gpu-id': 'gpuId',
} as const satisfies Record<string, keyof QueryBillingInput>;

type FieldFlag = keyof typeof FIELD_FLAGS;

const COMMAND_LINE = {
  command: 'billing',
  usage: BILLING_HELP,
  options: {
    output: { type: 'string', short: 'o', default: 'table' },
    'bucket-size': { type: 'string' },
    'start-time': { type: 'string' },
    'end-time': { type: 'string' },
    grouping: { type: 'string' },
    'pod-id': { type: 'string' },
    'endpoint-id': { type: 'string' },
    'gpu-id': { type: 'string' },
  },
  allowPositionals: true,
} as const;

export async function runBilling(args: string[], io: ServiceIo): Promise<number> {
  const options = billingOptions(args, io);
  if (typeof options === 'number') return options;
  const client = serviceClient('billing', io);
  if (typeof client === 'number') return client;
  const result = await queryBilling(client, options.request);
  if (!result.ok) {
    io.err(`endpoint-studio billing: billing failed: ${result.message}`);
    return result.reason === 'invalid' ? 2 : 1;
  }
  io.out(options.output === 'json' ? `${JSON.stringify(result.response, null, 2)}\n` : renderTable(result.request, result.response));
  return 0;
}

/** The checked request and output form, or the exit status after printing help or a usage error. */
function billingOptions(args: string[], io: ServiceIo): { request: BillingRequest; output: 'table' | 'json' } | number {
  const [first] = args;
  const line = readCommandLine(COMMAND_LINE, args, io, (problem) =>
    problem.kind === 'unknownOption' && SUBCOMMANDS.has(first) ? `unknown option for billing ${first}: ${problem.subject}` : problem.reason,
  );
  if (typeof line === 'number') return line;
  const [sub, ...extra] = line.positionals;
  const kind = SUBCOMMANDS.get(sub);
  if (kind === undefined)
    return usageError(
      COMMAND_LINE,
      io,
      line.positionals.length === 0 ? 'name what to bill: pods, serverless or network-volume' : `unknown billing command: ${sub}`,
    );
  if (extra.length > 0) return usageError(COMMAND_LINE, io, `unexpected argument: ${extra[0]}`);
  const { output } = line.values;
  if (output !== 'table' && output !== 'json') return usageError(COMMAND_LINE, io, `--output takes table or json; got: ${output}`);
  const input = requestInput(kind, sub, line.values);
  if (typeof input === 'string') return usageError(COMMAND_LINE, io, input);
  const checked = billingRequestOf(input);
  if (!checked.ok) return usageError(COMMAND_LINE, io, checked.message);
  return { request: checked.request, output };
}

/** The request the flags ask for, or which flag this kind of billing does not take. */
function requestInput(kind: BillingKind, sub: string, values: Partial<Record<FieldFlag, string>>): QueryBillingInput | string {
  const info = KINDS[kind];
  const input: { -readonly [K in keyof QueryBillingInput]: QueryBillingInput[K] } = { kind };
  for (const flag of Object.keys(FIELD_FLAGS) as FieldFlag[]) {
    const value = values[flag];
    if (value === undefined) continue;
    const field = FIELD_FLAGS[flag];
    const takes = field === 'grouping' ? info.groupings.length > 0 : !isFilter(field) || info.filters.includes(field);
    if (!takes) return `billing ${sub} has no --${flag} flag`;
    input[field] = value;
  }
  return input;
}

function isFilter(field: string): field is BillingFilter {
  return field === 'podId' || field === 'endpointId' || field === 'gpuId';
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
    return cellText(value);
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

/** An id or a time as the service wrote it; nothing for a missing one. */
function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
