/**
 * `endpoint-studio plan` over every file, folder or glob given: each file is read, checked and planned on its own,
 * so one bad file never hides the others' plans, and printed as text, one JSON array, or Markdown for a pull
 * request (the rendering is core's; this module only gathers and prints). A file that could not be
 * planned is an entry of its own in JSON and a section in Markdown, with a code saying why. An environment's
 * overlay is its own section (entry) and names its environment. Its flags are those of deployCommandLine.ts.
 * Exit codes: 0 planned, 1 invalid spec, refused plan or API problem, 2 usage error, unreadable file or no key.
 */
import { planCost } from '../core/deploy/planCost';
import { renderPlanMarkdown, renderPlansMarkdown, renderUnplannedMarkdown, type MarkdownSection } from '../core/deploy/renderMarkdown';
import { decideNamesakes, type NamesakePolicy } from '../core/operations';
import { usageError } from './args';
import {
  adoptNamesakes,
  documentTitle,
  endpointOfPlan,
  plansAsText,
  prepare,
  type PlannedDocument,
  type Prepared,
  type PrepareFailure,
} from './deployPrepare';
import { formatOf, readDeployLine, specFilesOf, usageOf, type DeployCommandShape } from './deployCommandLine';
import { diagnosticJson, diagnosticLine } from './inputs';
import { leftBehindEntries, leftBehindIn, leftBehindMarkdown, leftBehindText, type LeftBehind } from './orphansReport';
import type { ServiceIo } from './service';

export type PlanFormat = 'text' | 'json' | 'markdown';

const PLAN = {
  command: 'plan',
  // --yes is taken and ignored, as it always has been.
  flags: ['yes', 'format', 'document', 'catalog', 'adopt', 'env'],
  formats: ['text', 'json', 'markdown'],
  operands: { count: 1, many: true, missing: 'a spec file is needed' },
} as const satisfies DeployCommandShape<PlanFormat>;

export async function runPlan(args: string[], io: ServiceIo): Promise<number> {
  const line = readDeployLine(PLAN, args, io);
  if (typeof line === 'number') return line;
  const inputs = line.operands;
  const files = await specFilesOf('plan', inputs, line.values.env, io);
  if (files === undefined) return 2;
  if (line.document !== undefined && files.length > 1) return usageError(usageOf('plan'), io, '--document needs a single spec file');
  const { document, catalogPath, namesakes } = line;
  // What deleted specs left behind is listed after the plans; it never changes the exit status.
  const leftBehind = leftBehindIn('plan', [...inputs, ...files], io);
  return planFiles({ files, format: formatOf(PLAN, line), document, catalogPath, namesakes, leftBehind }, io);
}

export interface PlanFilesOptions {
  readonly files: readonly string[];
  readonly format: PlanFormat;
  readonly document?: number;
  readonly catalogPath?: string;
  readonly namesakes: NamesakePolicy;
  readonly leftBehind?: LeftBehind;
}

type FilePlan =
  | { readonly file: string; readonly prepared: Prepared; readonly exitCode: number }
  | { readonly file: string; readonly failure: PrepareFailure };

/** Failures that would repeat for every file: the first one ends the run. */
const RUN_WIDE: readonly PrepareFailure['code'][] = ['no-api-key', 'catalog-unreadable'];

/** Plans every file, prints the plans, and returns the worst exit status among them. */
export async function planFiles(options: PlanFilesOptions, io: ServiceIo): Promise<number> {
  const results: FilePlan[] = [];
  for (const file of options.files) {
    const prepared = await prepare(
      'plan',
      { file, ...(options.document !== undefined ? { document: options.document } : {}), catalogPath: options.catalogPath },
      io,
    );
    if ('exitCode' in prepared) {
      results.push({ file, failure: prepared });
      if (RUN_WIDE.includes(prepared.code)) break;
      continue;
    }
    // Without --adopt the plan shows the namesake note and leaves the choice to deploy.
    const adopted = options.namesakes === 'adopt' ? await adoptNamesakes(prepared, 'plan', 'adopt', io) : undefined;
    const refused = prepared.planned.some((p) => p.planned.plan.kind === 'refused');
    results.push({ file, prepared, exitCode: adopted ?? (refused ? 1 : 0) });
  }
  io.out(render(options.format, results, options.files.length > 1, options.leftBehind));
  return Math.max(0, ...results.map((r) => ('failure' in r ? r.failure.exitCode : r.exitCode)));
}

function render(format: PlanFormat, results: readonly FilePlan[], manyFiles: boolean, left?: LeftBehind): string {
  switch (format) {
    case 'text':
      // Files that could not be planned were explained on stderr.
      return results.map((r) => ('prepared' in r ? plansAsText(r.prepared, manyFiles) : '')).join('') + leftBehindText(left);
    case 'json':
      // Entries of their own kind, `{"orphan": {...}}`, after the plans: a consumer of the plans skips them.
      return `${JSON.stringify([...results.flatMap(jsonEntries), ...leftBehindEntries(left)], null, 2)}\n`;
    case 'markdown':
      return renderPlansMarkdown(results.flatMap(markdownSections)) + leftBehindMarkdown(left);
  }
}

/** Why deploy would refuse a create that is itself fine: unbound namesakes, without --adopt or --create-new. */
function refusalOf(item: PlannedDocument): string | undefined {
  const decision = decideNamesakes(item.planned.namesakes, 'refuse');
  return decision.action === 'refuse' ? `${decision.reason}; deploy with --adopt or --create-new, or bind the spec first` : undefined;
}

function jsonEntries(result: FilePlan): Record<string, unknown>[] {
  if ('failure' in result) {
    const { code, message, diagnostics } = result.failure;
    const problems = diagnostics?.map(diagnosticJson);
    return [{ file: result.file, action: 'not planned', code, message, ...(problems ? { diagnostics: problems } : {}) }];
  }
  const { prepared } = result;
  return prepared.planned.map((item) => {
    const { index, planned } = item;
    const { spec: _spec, ...plan } = planned.plan;
    const refusal = refusalOf(item);
    const cost = prepared.prices ? planCost(planned.plan, prepared.prices) : undefined;
    return {
      file: prepared.key,
      document: index,
      action: refusal === undefined ? planned.plan.kind : 'refused',
      ...plan,
      ...(planned.namesakes.length > 0 ? { namesakes: planned.namesakes } : {}),
      ...(planned.target.kind === 'adopted' ? { adopts: planned.target.endpointId } : {}),
      ...(refusal !== undefined ? { refusal } : {}),
      ...(prepared.environment ? { environment: prepared.environment } : {}),
      cost: cost ?? null,
    };
  });
}

function markdownSections(result: FilePlan): MarkdownSection[] {
  if ('failure' in result) {
    const { file, failure } = result;
    const problems = (failure.diagnostics ?? []).map((d) => diagnosticLine(file, d));
    return [{ action: 'not planned', markdown: renderUnplannedMarkdown(file, `${failure.message} (${failure.code})`, problems) }];
  }
  const { prepared } = result;
  return prepared.planned.map((item) => {
    const refusal = refusalOf(item);
    const { environment } = prepared;
    const markdown = renderPlanMarkdown(item.planned.plan, {
      title: environment ? `${environment.name}: ${documentTitle(prepared, item)}` : documentTitle(prepared, item),
      ...(prepared.prices ? { catalog: prepared.prices } : {}),
      ...(refusal !== undefined ? { refusal } : {}),
      ...(environment ? { environment: { ...environment, endpoint: endpointOfPlan(item) } } : {}),
    });
    return { action: refusal === undefined ? item.planned.plan.kind : 'refused', markdown };
  });
}
