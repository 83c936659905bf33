/**
 * The command line that `plan`, `deploy`, `pull` and `bind` share: one usage text, and one table that declares each
 * of their flags once. A command picks its own flags from the table; all four read every flag, so one meant for
 * another of them is refused by name (`--wait is not an option of plan`), not as unknown, since the usage text
 * they share lists it. What does not depend on the command (a flag's value, how many arguments, --format among
 * the command's choices) is checked here, in one order, before the command reads any file.
 */
import { catalogFileFromEnvironment } from '../core/api/config';
import { ENVIRONMENT_NAME, filesForEnvironment, specForEnvironment, type NamesakePolicy } from '../core/operations';
import { readCommandLine, usageError, type CommandLine } from './args';
import type { CliIo } from './inputs';
import { WATCH_EXIT_HELP, WATCH_FLAGS, WATCH_FLAGS_HELP } from './rolloutReport';
import type { ServiceIo } from './service';
import { documentOption } from './target';
import { expandInputs } from './validate';
import { reportPath } from './validateReport';

export const DEPLOY_HELP = `Usage:
  endpoint-studio plan [--format text|json|markdown] [--env ENV] [--document N] [--catalog FILE] [--adopt] <specs...>
  endpoint-studio deploy [--yes] [--env ENV] [--document N] [--catalog FILE] [--adopt | --create-new]
                         [--overwrite-outside] [--keep-going]
                         [--wait [--stall-after S] [--fail-after S] [--smoke FILE] [--rollback-on-failure]]
                         [--format text|json] <specs...>
  endpoint-studio pull [--format yaml|json] <endpointId>
  endpoint-studio bind [--document N] <spec> <endpointId>

plan    shows what a deploy would do: create, the fields an update changes, or nothing,
        for every spec file, folder or glob given. --format markdown writes a section per
        document (for a pull request's job summary); json one array, one entry per document
        or per file that could not be planned.
deploy  validates, plans, asks (or takes --yes), applies, reads the endpoint back and checks
        it, and records the endpoint in .endpoint-studio/deployments.json (commit it). Files,
        folders and globs, each in turn; the first that fails stops the rest (--keep-going
        deploys them all), and a summary lists each file's result.
pull    prints a live endpoint's configuration as a spec.
bind    records that a spec describes an existing endpoint, without deploying: the next
        deploy updates it.

An unbound spec whose name is already taken by live endpoints is not deployed: deploy
exits 1 and names them. --adopt binds the spec to its one namesake and updates it to the
spec; --create-new creates another endpoint of that name on purpose.

A plan names what was changed outside (the console, a script) since the last deploy. A
deploy that would set such a field back, or overwrite it, exits 6 and sends nothing: write
the live value into the spec to keep it, or deploy with --overwrite-outside.

--env ENV     the ENV environment: its overlays (<base>.ENV.endpoint.yaml) among the files
              and folders given, or a base's overlay of that environment. An overlay given
              without --env is planned as its environment. An environment's key is read
              from its own variable only: ENDPOINT_STUDIO_API_KEY_<ENV>, or the keyVariable
              that .endpoint-studio/environments.yaml names. A protected environment asks
              for its name typed on a terminal; with no terminal, --yes.
--document N  only the Nth document (0-based) of a multi-document YAML file.
The service is $ENDPOINT_STUDIO_API_URL with the key in $ENDPOINT_STUDIO_API_KEY.

deploy --wait then watches each endpoint's rollout, a line on stderr for each change,
until every worker runs the new release (an endpoint already matching the spec is
watched too), then says the release's time to ready beside the release before's (kept in
deployments.json), with a warning when it is 50% slower:
${WATCH_FLAGS_HELP}
--smoke FILE     once rolled out, run the job request FILE ({"input": ...}, as run sends
                 it) on the endpoint: it passes when it completes on the new release.
--rollback-on-failure
                 when the rollout stalls or fails, or the smoke job fails, go back to the
                 release before this deploy (as endpoint-studio rollback does, without
                 asking) and watch that rollout; the exit status still says the failure.
                 Without it, the rollback command to run is printed.
--format F       text (default), or json: one JSON object on stdout with each document's
                 plan, apply, rollout, smoke check, rollback and readiness (the time to
                 ready); the rest goes to stderr.

Exit status: 0 done, 1 invalid spec, refused plan, unbound namesake or API problem,
2 usage error, 3 confirmation needed (run deploy with --yes when there is no terminal to ask),
6 the plan overwrites changes made outside since the last deploy (keep them in the spec, or
--overwrite-outside); with --wait also
${WATCH_EXIT_HELP}`;

export type DeployCommand = 'plan' | 'deploy' | 'pull' | 'bind';

/** Every flag of the four commands, in the order a refusal looks for them. */
const DEPLOY_FLAGS = {
  yes: { type: 'boolean', short: 'y', default: false },
  format: { type: 'string' },
  document: { type: 'string' },
  catalog: { type: 'string' },
  adopt: { type: 'boolean', default: false },
  'create-new': { type: 'boolean', default: false },
  'overwrite-outside': { type: 'boolean', default: false },
  'keep-going': { type: 'boolean', default: false },
  env: { type: 'string' },
  wait: { type: 'boolean', default: false },
  smoke: { type: 'string' },
  'rollback-on-failure': { type: 'boolean', default: false },
  ...WATCH_FLAGS,
} as const;

export type DeployFlag = keyof typeof DEPLOY_FLAGS;

/** The flags as given: a boolean flag false and a string flag undefined when absent. */
export type DeployFlagValues = CommandLine<typeof DEPLOY_FLAGS, true>['values'];

/** What one command takes. */
export interface DeployCommandShape<F extends string = string> {
  readonly command: DeployCommand;
  /** Its flags, picked from the table. */
  readonly flags: readonly DeployFlag[];
  /** What --format takes, the default first. */
  readonly formats?: readonly [F, ...F[]];
  /** The things after the flags: `count` of them (at least, when `many`), and what to say when too few or many. */
  readonly operands: { readonly count: number; readonly many?: true; readonly missing: string; readonly extra?: string };
  /** Flags of the table it refuses in words of its own, before the refusal every command makes. */
  readonly refuses?: { readonly flags: readonly DeployFlag[]; readonly problem: string };
}

/** A command line that passed every check a command shares. */
export interface DeployLine {
  readonly values: DeployFlagValues;
  readonly operands: readonly string[];
  /** --document as an index. */
  readonly document?: number;
  /** --catalog, else $ENDPOINT_STUDIO_CATALOG_FILE. */
  readonly catalogPath?: string;
  /** --adopt, --create-new, or neither. */
  readonly namesakes: NamesakePolicy;
}

/** For `usageError`: a command's name with the usage text the four share. */
export const usageOf = (command: DeployCommand) => ({ command, usage: DEPLOY_HELP });

/** The flags given among `flags`, in the table's order. */
export function givenFlags(
  values: DeployFlagValues,
  flags: readonly DeployFlag[] = Object.keys(DEPLOY_FLAGS) as DeployFlag[],
): DeployFlag[] {
  return flags.filter((flag) => values[flag] !== undefined && values[flag] !== false);
}

/** The flags and arguments; or the exit status after printing help or a usage error. */
export function readDeployLine(shape: DeployCommandShape, args: readonly string[], io: ServiceIo): DeployLine | number {
  const spec = { ...usageOf(shape.command), options: DEPLOY_FLAGS, allowPositionals: true } as const;
  const line = readCommandLine(spec, args, io);
  if (typeof line === 'number') return line;
  const { values, positionals } = line;
  const document = documentOption(values.document);
  const problem =
    flagProblem(shape, values) ??
    ('problem' in document ? document.problem : undefined) ??
    operandProblem(shape, positionals) ??
    formatProblem(shape, values.format);
  if (problem !== undefined) return usageError(spec, io, problem);
  return {
    values,
    operands: positionals,
    ...document,
    catalogPath: values.catalog ?? catalogFileFromEnvironment(io.env ?? process.env),
    namesakes: values.adopt ? 'adopt' : values['create-new'] ? 'create-new' : 'refuse',
  };
}

/** --format, or the command's default; only for a line `readDeployLine` has checked. */
export function formatOf<F extends string>(shape: DeployCommandShape<F> & { readonly formats: readonly [F, ...F[]] }, line: DeployLine): F {
  return (line.values.format as F | undefined) ?? shape.formats[0];
}

function flagProblem(shape: DeployCommandShape, values: DeployFlagValues): string | undefined {
  const given = givenFlags(values);
  if (shape.refuses && given.some((flag) => shape.refuses?.flags.includes(flag))) return shape.refuses.problem;
  const foreign = given.find((flag) => !shape.flags.includes(flag));
  if (foreign !== undefined) return `--${foreign} is not an option of ${shape.command}`;
  if (values.adopt && values['create-new']) return '--adopt and --create-new exclude each other';
  if (values.env !== undefined && !ENVIRONMENT_NAME.test(values.env))
    return `--env takes an environment name (letters, digits, - and _), as in <base>.<env>.endpoint.yaml; got: ${values.env || 'nothing'}`;
  return undefined;
}

function operandProblem(shape: DeployCommandShape, operands: readonly string[]): string | undefined {
  const { count, many, missing, extra } = shape.operands;
  if (operands.length < count) return missing;
  return operands.length > count && !many ? extra : undefined;
}

function formatProblem(shape: DeployCommandShape, format: string | undefined): string | undefined {
  const { formats } = shape;
  if (format === undefined || formats === undefined || formats.includes(format)) return undefined;
  return `--format takes ${orList(formats)}; got: ${format}`;
}

/** `text, json or markdown` */
function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

/**
 * The spec files of the files, folders and globs given, as validate expands them; with --env, the files of that
 * environment among them: its overlays, and each base's overlay of it. A file named directly that has none is an
 * error; a folder or glob just contributes the overlays it holds. Undefined after saying why there are none.
 */
export async function specFilesOf(
  command: DeployCommand | 'render' | 'policy',
  inputs: readonly string[],
  environment: string | undefined,
  io: CliIo,
): Promise<string[] | undefined> {
  const files = await expandInputs(inputs, io);
  if (files === undefined || environment === undefined) return files;
  for (const named of inputs.filter((input) => files.includes(input))) {
    const picked = specForEnvironment(named, environment);
    if (!picked.ok) {
      io.err(`endpoint-studio ${command}: ${picked.message}`);
      return undefined;
    }
  }
  const chosen = filesForEnvironment(files, environment).map((path) => reportPath(process.cwd(), path));
  if (chosen.length === 0)
    io.err(`endpoint-studio ${command}: no ${environment} overlay (<base>.${environment}.endpoint.yaml) among the files given`);
  return chosen.length === 0 ? undefined : chosen;
}
