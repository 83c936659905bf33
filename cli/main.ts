/** The `endpoint-studio` command line: validate specs, run the language server, run the emulator. */
import { runValidate, VALIDATE_HELP, type CliIo } from './validate';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isValidateWorker, runValidateWorker } from './checkFiles';
import { runEmulatorCli } from '../emulator/cli';
import { runMigrate } from './migrate';
import { DEPLOY_HELP, runBind, runDeploy, runPlan, runPull, terminalConfirm } from './deploy';
import { BILLING_HELP, runBilling } from './billing';
import { MCP_HELP, runMcp } from './mcp';
import { CATALOG_HELP, runCatalog } from './catalog';

const HELP = `Usage: endpoint-studio <command> [options]

Commands:
  validate [--format text|json] <files...>   check endpoint specs (exit 1 on errors)
  catalog export [--output FILE]              the service's catalog as a snapshot for validate --catalog
  migrate [--write] [--catalog FILE] <files>  convert REST v1 / GraphQL-era specs to v2
  plan <specs...> [--format text|json|markdown]  what deploying specs would change
  deploy <spec> [--yes]                       create or update the endpoint of a spec, then verify it
  pull <endpointId> [--format yaml|json]      print a live endpoint as a spec
  bind <spec> <endpointId>                    record that a spec describes an existing endpoint
  billing pods|serverless|network-volume      billing history by time bucket (--output table|json)
  lsp --stdio                                 run the language server for any LSP client
  mcp [--allow-writes]                        serve the agent tools over MCP on stdio
  emulator [--port N] [--jobs-port N] ...     run the local emulator of the REST API v2 and job API
                                              (endpoint-studio emulator --help for its options)
  help [command]                              show help

${VALIDATE_HELP}

${DEPLOY_HELP}

${CATALOG_HELP}

${BILLING_HELP}

${MCP_HELP}`;

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** Confirmation prompts only where a person can answer them; CI gets the plan and exit code 3. */
function deployIo() {
  return { ...io, confirm: process.stdin.isTTY && process.stdout.isTTY ? terminalConfirm : undefined };
}

async function main(argv: string[]): Promise<number | undefined> {
  const command = argv.at(0);
  const rest = argv.slice(1);
  switch (command) {
    case 'validate':
      return runValidate(rest, io);
    case 'plan':
      return runPlan(rest, deployIo());
    case 'deploy':
      return runDeploy(rest, deployIo());
    case 'pull':
      return runPull(rest, deployIo());
    case 'bind':
      return runBind(rest, io);
    case 'billing':
      return runBilling(rest, io);
    case 'catalog':
      return runCatalog(rest, io);
    case 'migrate':
      return runMigrate(rest, io);
    case 'mcp':
      return runMcp(rest, io);
    case 'emulator':
      return runEmulatorCli(rest);
    case 'lsp':
      // The server owns stdin/stdout from here on; the process lives as long as the client. It is the
      // language server's own bundle, next to this one, so the CLI does not carry a second copy of it.
      createRequire(__filename)(join(__dirname, 'server.js'));
      return undefined;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(`${HELP}\n`);
      return command === undefined ? 2 : 0;
    case '--version':
    case '-v':
      io.out('0.1.0\n');
      return 0;
    default:
      io.err(`endpoint-studio: unknown command: ${command}\n\n${HELP}`);
      return 2;
  }
}

if (isValidateWorker()) {
  void runValidateWorker();
} else {
  void runCommandLine();
}

function runCommandLine(): Promise<void> {
  return main(process.argv.slice(2)).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (error: unknown) => {
      io.err(`endpoint-studio: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 2;
    },
  );
}
