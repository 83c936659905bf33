/**
 * `endpoint-studio promote --from staging --to prod <specs...>`: writes into prod's overlay what staging last
 * deployed and verified (by default its image), then prints prod's plan, the very plan `plan --env prod` prints,
 * on prod's key. It never deploys: prod's deploy, with its guard, is the next step, and is named. What may be
 * promoted and what is written are core's (core/operations/promote.ts); this module asks, writes and reports.
 * Exit codes: 0 written (or nothing to write) and planned, 1 a promotion refused (nothing is written then) or a
 * write failed, or the plan's own 1, 2 usage error, unreadable file, or no key for the target's plan.
 */
import { configFromEnvironment } from '../core/api/config';
import { renderValue } from '../core/deploy/render';
import { readSpecFromDisk } from '../core/environments/overlays';
import { writeFileAtomicSync } from '../core/util/atomicWrite';
import {
  applyPromotion,
  DEFAULT_PROMOTED_FIELDS,
  ENVIRONMENT_NAME,
  environmentSettings,
  filesForEnvironment,
  planPromotion,
  verificationLine,
  type Promotion,
} from '../core/operations';
import { readCommandLine, usageError } from './args';
import { planFiles } from './plan';
import type { ServiceIo } from './service';
import { expandInputs } from './validate';
import { reportPath } from './validateReport';

export const PROMOTE_HELP = `Usage: endpoint-studio promote --from ENV --to ENV [--field PATH]... [--format text|json]
                               [--dry-run] <specs...>

Writes into the --to environment's overlay the values the --from environment last
deployed (by default its image), then prints the --to environment's plan, as
plan --env does, on that environment's key. Nothing is deployed: run deploy --env
with the --to environment next, which asks for its guard (its key, a protected
environment's typed name or --yes, a pinned image).

Only what the --from environment's last deploy recorded can be promoted: the body it
sent and read back, on a release whose smoke job (deploy --wait --smoke, the editor's
Smoke Check) did not fail. A release without a smoke job is promoted and says so. Each
file given is a base, or an overlay of either environment; a folder contributes the
--from overlays it holds. Comments and key order in the overlay stay; a value it
already deploys is not written again.

--field PATH  a dotted spec path to promote (image, env.MODEL_ID); repeat for more.
              Default: image. name is never promoted: each environment is an endpoint.
--dry-run     say what would be written, write nothing and plan nothing.
--format F    text (default), or json: one object with the promotions and the plan.

Exit status: 0 written (or already there) and planned, 1 a promotion refused (then
nothing is written), a write failed, or the plan refused, 2 usage error, unreadable
file, or no key for the plan (the overlay is written first).`;

const COMMAND_LINE = {
  command: 'promote',
  usage: PROMOTE_HELP,
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    field: { type: 'string', multiple: true },
    format: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  },
  allowPositionals: true,
} as const;

interface PromoteOptions {
  readonly from: string;
  readonly to: string;
  readonly fields: readonly string[];
  readonly json: boolean;
  readonly dryRun: boolean;
  readonly inputs: readonly string[];
}

function promoteOptions(args: readonly string[], io: ServiceIo): PromoteOptions | number {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { from, to, field, format } = line.values;
  for (const [flag, value] of [
    ['--from', from],
    ['--to', to],
  ] as const)
    if (value === undefined || !ENVIRONMENT_NAME.test(value))
      return usageError(COMMAND_LINE, io, `${flag} takes an environment name (letters, digits, - and _); got: ${value || 'nothing'}`);
  if (from === to) return usageError(COMMAND_LINE, io, `--from and --to name the same environment: ${from ?? ''}`);
  if (format !== undefined && format !== 'text' && format !== 'json')
    return usageError(COMMAND_LINE, io, `--format takes text or json; got: ${format}`);
  if (line.positionals.length === 0) return usageError(COMMAND_LINE, io, 'a spec file is needed');
  return {
    from: from ?? '',
    to: to ?? '',
    fields: field ?? [],
    json: format === 'json',
    dryRun: line.values['dry-run'],
    inputs: line.positionals,
  };
}

export async function runPromote(args: readonly string[], io: ServiceIo): Promise<number> {
  const options = promoteOptions(args, io);
  if (typeof options === 'number') return options;
  const files = await promotedFiles(options, io);
  if (files === undefined) return 2;
  const promotions = planPromotion({ from: options.from, to: options.to, files, fields: options.fields, shown });
  const refused = promotions.filter((p) => p.kind === 'refused');
  for (const promotion of refused) io.err(`endpoint-studio promote: ${shown(promotion.file)}: not promoted: ${promotion.reason}`);
  if (!options.json)
    io.out(
      promotions
        .filter((p) => p.kind !== 'refused')
        .map((p) => promotionText(p, options.dryRun))
        .join(''),
    );
  if (refused.length > 0 || options.dryRun) {
    if (refused.length > 0 && promotions.some((p) => p.kind === 'write')) io.err('endpoint-studio promote: nothing was written');
    if (options.json) io.out(jsonReport(options, promotions, [], null));
    return refused.length > 0 ? 1 : 0;
  }
  const applied = applyPromotion(promotions, { read: readSpecFromDisk, write: writeFileAtomicSync, shown });
  for (const failure of applied.failed) io.err(`endpoint-studio promote: ${failure.error}`);
  if (!options.json) for (const path of applied.written) io.out(`wrote ${shown(path)}\n`);
  const planned = await targetPlan(options, promotions, io);
  if (options.json) io.out(jsonReport(options, promotions, applied.written, planned.json));
  else io.out(`${options.to} is not deployed by promote: ${deployCommand(options, promotions)}\n`);
  return applied.failed.length > 0 ? Math.max(1, planned.exitCode) : planned.exitCode;
}

/** The files named as they are; from a folder or glob, the --from overlays it holds. */
async function promotedFiles(options: PromoteOptions, io: ServiceIo): Promise<string[] | undefined> {
  const expanded = await expandInputs(options.inputs, io);
  if (expanded === undefined) return undefined;
  const named = expanded.filter((file) => options.inputs.includes(file));
  const found = filesForEnvironment(
    expanded.filter((file) => !named.includes(file)),
    options.from,
  );
  const files = [...named, ...found];
  if (files.length === 0) io.err(`endpoint-studio promote: no ${options.from} overlay among ${options.inputs.join(', ')}`);
  return files.length === 0 ? undefined : files;
}

const shown = (path: string): string => reportPath(process.cwd(), path);

/** `promote staging → prod: specs/sdxl.endpoint.yaml`, what it rests on, and each field. */
function promotionText(promotion: Exclude<Promotion, { kind: 'refused' }>, dryRun: boolean): string {
  const { source, target } = promotion;
  const into = shown(target.path);
  const lines = [
    `promote ${source.environment} → ${target.environment}${target.protected ? ' (protected)' : ''}: ${shown(promotion.base)}`,
    `  verified: ${verificationLine(source)}${source.smoke.state === 'none' ? ' (deploy --wait --smoke checks one)' : ''}`,
    ...promotion.values.map((v) =>
      v.changes
        ? `  ~ ${v.field}: ${v.current === undefined ? '(none)' : renderValue(v.current)} → ${renderValue(v.value)}`
        : `  = ${v.field}: ${renderValue(v.value)} (${target.environment} deploys it already)`,
    ),
    promotion.kind === 'unchanged'
      ? `  nothing to write: ${into} deploys these values already`
      : `  ${dryRun ? 'would write' : 'writes'} ${into} (comments and key order kept)`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `endpoint-studio deploy --env prod specs/sdxl.endpoint.yaml` for the bases promoted. */
function deployCommand(options: PromoteOptions, promotions: readonly Promotion[]): string {
  const bases = promotions.flatMap((p) => (p.kind === 'refused' ? [] : [shown(p.base)]));
  return `run endpoint-studio deploy --env ${options.to} ${bases.join(' ')}`;
}

interface TargetPlan {
  readonly exitCode: number;
  readonly json: unknown;
}

/** The target environment's plan of each promoted overlay, as `plan --env` makes it; on its key only. */
async function targetPlan(options: PromoteOptions, promotions: readonly Promotion[], io: ServiceIo): Promise<TargetPlan> {
  const targets = promotions.flatMap((p) => (p.kind === 'refused' ? [] : [p.target.path]));
  if (targets.length === 0) return { exitCode: 0, json: null };
  const { keyVariable } = environmentSettings(options.to, targets[0]).environment;
  if (!configFromEnvironment(io.env ?? process.env, { keyVariable }).apiKey) {
    io.err(
      `endpoint-studio promote: ${options.to}'s plan needs ${keyVariable} (an environment's key is read from its own variable only): set it, then run endpoint-studio plan --env ${options.to} ${targets.map(shown).join(' ')}`,
    );
    return { exitCode: 2, json: null };
  }
  const files = targets.map(shown);
  if (!options.json) return { exitCode: await planFiles({ files, format: 'text', namesakes: 'refuse' }, io), json: null };
  let printed = '';
  const exitCode = await planFiles({ files, format: 'json', namesakes: 'refuse' }, { ...io, out: (text) => void (printed += text) });
  return { exitCode, json: JSON.parse(printed) as unknown };
}

function jsonReport(options: PromoteOptions, promotions: readonly Promotion[], written: readonly string[], plan: unknown): string {
  const report = {
    from: options.from,
    to: options.to,
    fields: options.fields.length > 0 ? options.fields : DEFAULT_PROMOTED_FIELDS,
    dryRun: options.dryRun,
    promotions: promotions.map(promotionJson),
    written: written.map(shown),
    plan,
    next:
      options.dryRun || written.length + promotions.filter((p) => p.kind === 'unchanged').length === 0
        ? null
        : deployCommand(options, promotions).replace(/^run /, ''),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

function promotionJson(promotion: Promotion): Record<string, unknown> {
  if (promotion.kind === 'refused')
    return {
      file: shown(promotion.file),
      action: 'refused',
      code: promotion.code,
      reason: promotion.reason,
      source: promotion.source ? { ...promotion.source, path: shown(promotion.source.path) } : null,
    };
  const { source, target, values } = promotion;
  return {
    file: shown(promotion.file),
    base: shown(promotion.base),
    action: promotion.kind,
    source: { ...source, path: shown(source.path) },
    target: { ...target, path: shown(target.path) },
    values: values.map(({ field, value, current, changes }) => ({ field, value, current: current ?? null, changes })),
  };
}
