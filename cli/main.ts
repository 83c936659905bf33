/**
 * The `endpoint-studio` command line: validate specs, run the language server, run the emulator.
 * Each command's module is loaded only when that command runs: `validate` in CI starts often, and must not
 * pay for the deploy planner or the API client it never uses (esbuild keeps such modules in the bundle but runs
 * their top level only on the first import), nor read the MCP SDK, zod and the emulator (`./tools.js`, a bundle of
 * its own: scripts/build.mjs).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { CliIo } from './inputs';
import { isValidateWorker, runValidateWorker } from './checkFiles';

const COMMANDS_HELP = `Usage: endpoint-studio <command> [options]

Commands:
  validate [--format text|json|github|sarif] <files...>  check endpoint specs (exit 1 on errors)
  catalog export [--output FILE]              the service's catalog as a snapshot for validate --catalog
  migrate [--write] [--catalog FILE] <files>  convert REST v1 / GraphQL-era specs to v2
  plan <specs...> [--format text|json|markdown]  what deploying specs would change
  render [--env ENV] [--check FILE] <specs...>  the body each spec deploys, as JSON; sends nothing
  deploy <spec> [--yes] [--wait]              create or update the endpoint of a spec, then verify it
                                              (--wait: watch its rollout, --smoke, --rollback-on-failure)
  rollout <spec|endpointId> [--watch]         how far the endpoint's latest release has rolled out
  rollback <spec|endpointId> --to N           back to release N's configuration (--write-spec, --wait)
  promote --from ENV --to ENV <specs...>      write what one environment deployed and verified into
                                              another's overlay (its image), then show that one's plan
  pull <endpointId> [--format yaml|json]      print a live endpoint as a spec
  bind <spec> <endpointId>                    record that a spec describes an existing endpoint
  policy show [<specs...>] [--env ENV]        the team policy's rules over specs, and their cost headroom
  orphans [<folder>] [--delete|--forget X]    endpoints whose spec was deleted, still billed; act on one
  logs <spec|endpointId> [--follow]           the endpoint's worker logs merged, oldest first
  run <spec|endpointId> <request.json> [--sync]  submit a job to a queue endpoint
  job status|cancel|retry <spec|endpointId> <jobId>  a job's state, cancel it, retry it
  billing pods|serverless|network-volume      billing history by time bucket (--output table|json)
  lsp --stdio                                 run the language server for any LSP client
  mcp [--allow-writes]                        serve the agent tools over MCP on stdio
  emulator [--port N] [--jobs-port N] ...     run the local emulator of the REST API v2 and job API
                                              (endpoint-studio emulator --help for its options)
  help [command]                              show help`;

/** The overview and every command's own usage; those texts live with their commands, so they load here. */
async function helpText(): Promise<string> {
  const usages = await Promise.all([
    import('./validate.js').then((m) => m.VALIDATE_HELP),
    import('./deployCommandLine.js').then((m) => m.DEPLOY_HELP),
    import('./render.js').then((m) => m.RENDER_HELP),
    import('./policy.js').then((m) => m.POLICY_HELP),
    import('./orphans.js').then((m) => m.ORPHANS_HELP),
    import('./rollout.js').then((m) => m.ROLLOUT_HELP),
    import('./rollback.js').then((m) => m.ROLLBACK_HELP),
    import('./promote.js').then((m) => m.PROMOTE_HELP),
    import('./logs.js').then((m) => m.LOGS_HELP),
    import('./jobs.js').then((m) => m.JOBS_HELP),
    import('./catalog.js').then((m) => m.CATALOG_HELP),
    import('./billing.js').then((m) => m.BILLING_HELP),
    import('./tools.js').then((m) => m.MCP_HELP),
  ]);
  return [COMMANDS_HELP, ...usages].join('\n\n');
}

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/**
 * Confirmation prompts only where a person can answer them; CI gets the plan and exit code 3. A protected
 * environment's name is typed wherever stdin is a terminal (the prompt on stderr, so stdout stays the plan).
 */
async function deployIo() {
  const { terminalAsk, terminalConfirm } = await import('./applying.js');
  return {
    ...io,
    confirm: process.stdin.isTTY && process.stdout.isTTY ? terminalConfirm : undefined,
    ask: process.stdin.isTTY ? terminalAsk : undefined,
    interruption: interruptionOnce(),
  };
}

/**
 * The Ctrl-C signal of a deploy or rollback that watches a rollout, made when the watching starts: until then
 * Ctrl-C ends the command as it always has, and from then on the first one stops watching (the rollout goes on).
 */
function interruptionOnce(): () => AbortSignal {
  let signal: AbortSignal | undefined;
  return () => (signal ??= interruptibleIo().signal);
}

/**
 * For the commands that follow something: the first Ctrl-C aborts the signal (a log follow ends, a followed job
 * is cancelled) and the command exits on its own; once it has fired, a second Ctrl-C ends the process as usual.
 */
function interruptibleIo(): CliIo & { signal: AbortSignal } {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort();
  });
  return { ...io, signal: controller.signal };
}

/** The commands that run a module of their own, by name. */
const COMMANDS = new Map<string, (rest: string[]) => Promise<number | undefined>>([
  ['validate', async (rest) => (await import('./validate.js')).runValidate(rest, io)],
  ['plan', async (rest) => (await import('./plan.js')).runPlan(rest, await deployIo())],
  ['deploy', async (rest) => (await import('./deploy.js')).runDeploy(rest, await deployIo())],
  ['render', async (rest) => (await import('./render.js')).runRender(rest, io)],
  ['pull', async (rest) => (await import('./pull.js')).runPull(rest, await deployIo())],
  ['bind', async (rest) => (await import('./bind.js')).runBind(rest, io)],
  ['policy', async (rest) => (await import('./policy.js')).runPolicy(rest, io)],
  ['orphans', async (rest) => (await import('./orphans.js')).runOrphans(rest, await deployIo())],
  ['rollout', async (rest) => (await import('./rollout.js')).runRollout(rest, interruptibleIo())],
  ['rollback', async (rest) => (await import('./rollback.js')).runRollback(rest, await deployIo())],
  ['promote', async (rest) => (await import('./promote.js')).runPromote(rest, io)],
  ['logs', async (rest) => (await import('./logs.js')).runLogs(rest, interruptibleIo())],
  ['run', async (rest) => (await import('./jobs.js')).runRun(rest, interruptibleIo())],
  ['job', async (rest) => (await import('./jobs.js')).runJobCommand(rest, interruptibleIo())],
  ['billing', async (rest) => (await import('./billing.js')).runBilling(rest, io)],
  ['catalog', async (rest) => (await import('./catalog.js')).runCatalog(rest, io)],
  ['migrate', async (rest) => (await import('./migrate.js')).runMigrate(rest, io)],
  ['mcp', async (rest) => (await import('./tools.js')).runMcp(rest, io)],
  ['emulator', async (rest) => (await import('./tools.js')).runEmulatorCli(rest)],
]);

async function main(argv: string[]): Promise<number | undefined> {
  const command = argv.at(0);
  const run = COMMANDS.get(command ?? '');
  if (run) return run(argv.slice(1));
  switch (command) {
    case 'lsp':
      // The server owns stdin/stdout from here on; the process lives as long as the client. It is the
      // language server's own bundle, next to this one, so the CLI does not carry a second copy of it.
      createRequire(__filename)(join(__dirname, 'server.js'));
      return undefined;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(`${await helpText()}\n`);
      return command === undefined ? 2 : 0;
    case '--version':
    case '-v':
      io.out(`${(await import('../core/util/packageInfo.js')).packageInfo().version}\n`);
      return 0;
    default:
      io.err(`endpoint-studio: unknown command: ${command}\n\n${await helpText()}`);
      return 2;
  }
}

if (isValidateWorker()) {
  runValidateWorker();
} else {
  void main(process.argv.slice(2)).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      io.err(`endpoint-studio: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 2;
    },
  );
}
