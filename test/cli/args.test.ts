/**
 * Command lines read through node:util's parseArgs: both value forms, short aliases, defaults, and every
 * kind of mistake turned into the command's own usage error (exit 2), never a TypeError.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { argsProblem, readCommandLine } from '../../cli/args';
import { runBilling } from '../../cli/billing';
import { runDeploy, runPlan, runPull } from '../../cli/deploy';
import type { CliIo } from '../../cli/inputs';
import { runMigrate } from '../../cli/migrate';
import { runValidate } from '../../cli/validate';
import { runEmulatorCli } from '../../cli/emulator';
import { REPO_ROOT } from '../support/lspClient';

interface Captured extends CliIo {
  stdout: string;
  stderr: string;
}

function captureIo(): Captured {
  const io: Captured = {
    stdout: '',
    stderr: '',
    out: (text) => {
      io.stdout += text;
    },
    err: (text) => {
      io.stderr += text;
    },
  };
  return io;
}

const DEMO = {
  command: 'demo',
  usage: 'Usage: endpoint-studio demo [--format F] [--yes] <files...>',
  options: { format: { type: 'string', short: 'f', default: 'text' }, yes: { type: 'boolean', short: 'y' } },
  allowPositionals: true,
} as const;

describe('readCommandLine', () => {
  it('reads --flag value, --flag=value and short aliases alike, applies defaults, and keeps positionals in order', () => {
    for (const args of [
      ['--format', 'json', 'a', 'b'],
      ['--format=json', 'a', 'b'],
      ['a', '-f', 'json', 'b'],
    ]) {
      const line = readCommandLine(DEMO, args, captureIo());
      assert.ok(typeof line !== 'number', args.join(' '));
      assert.equal(line.values.format, 'json');
      assert.deepEqual(line.positionals, ['a', 'b']);
    }
    const defaults = readCommandLine(DEMO, ['-y', '--', '--not-a-flag'], captureIo());
    assert.ok(typeof defaults !== 'number');
    assert.deepEqual({ ...defaults.values }, { format: 'text', yes: true });
    assert.deepEqual(defaults.positionals, ['--not-a-flag'], 'after -- everything is an argument');
  });

  it('turns each parseArgs error into a usage error in the command’s words, with the usage text and exit 2', () => {
    const cases: [string[], string][] = [
      [['--bogus', 'a'], 'unknown option: --bogus'],
      [['--bogus=1', 'a'], 'unknown option: --bogus'],
      [['-x', 'a'], 'unknown option: -x'],
      [['a', '--format'], '--format needs a value'],
      [['a', '-f'], '--format needs a value'],
      [['--format', '--yes', 'a'], '--format needs a value'],
      [['--yes=1', 'a'], '--yes takes no value'],
    ];
    for (const [args, reason] of cases) {
      const io = captureIo();
      assert.equal(readCommandLine(DEMO, args, io), 2, args.join(' '));
      assert.equal(io.stderr, `endpoint-studio demo: ${reason}\n\n${DEMO.usage}`, args.join(' '));
      assert.equal(io.stdout, '');
    }
    const noArguments = captureIo();
    assert.equal(readCommandLine({ ...DEMO, allowPositionals: false }, ['extra'], noArguments), 2);
    assert.match(noArguments.stderr, /^endpoint-studio demo: unexpected argument: extra\n/);
  });

  it('lets a command reword a problem, and prints help for -h/--help even next to a bad flag', () => {
    const io = captureIo();
    assert.equal(
      readCommandLine(DEMO, ['--bogus'], io, (problem) => `${problem.kind} ${problem.subject}`),
      2,
    );
    assert.match(io.stderr, /^endpoint-studio demo: unknownOption --bogus\n/);
    for (const args of [['--help'], ['-h', 'a'], ['--bogus', '--help']]) {
      const help = captureIo();
      assert.equal(readCommandLine(DEMO, args, help), 0, args.join(' '));
      assert.equal(help.stdout, `${DEMO.usage}\n`);
      assert.equal(help.stderr, '');
    }
  });

  it('leaves errors that are not about the command line alone', () => {
    assert.equal(argsProblem(new TypeError('boom'), DEMO.options), undefined);
    assert.equal(argsProblem(new Error('boom'), DEMO.options), undefined);
  });
});

describe('command flags', () => {
  const usageError = async (run: (args: string[], io: CliIo) => Promise<number>, args: string[], message: RegExp): Promise<void> => {
    const io = captureIo();
    assert.equal(await run(args, io), 2, args.join(' '));
    assert.match(io.stderr, message, args.join(' '));
    assert.match(io.stderr, /Usage:/);
    assert.doesNotMatch(io.stderr, /TypeError|ERR_PARSE_ARGS/);
  };

  it('validate and migrate', async () => {
    await usageError(runValidate, ['--bogus', 'a.endpoint.yaml'], /^endpoint-studio validate: unknown option: --bogus\n/);
    await usageError(runValidate, ['--format=xml', 'a.endpoint.yaml'], /--format takes text, json, github or sarif; got: xml/);
    await usageError(runValidate, ['--catalog=', 'a.endpoint.yaml'], /--catalog takes a file/);
    await usageError(runValidate, ['a.endpoint.yaml', '--catalog'], /--catalog needs a value/);
    await usageError(runValidate, ['--format', 'json'], /no files given/);
    await usageError(runMigrate, ['--write=yes', 'a.endpoint.yaml'], /^endpoint-studio migrate: --write takes no value\n/);
    await usageError(runMigrate, ['--catalog'], /--catalog needs a value/);
    await usageError(runMigrate, ['--write'], /no files given/);
  });

  it('plan, deploy and pull', async () => {
    await usageError(runPlan, ['--document=x', 'a.endpoint.yaml'], /--document takes a document index \(0, 1, \.\.\.\); got: x/);
    await usageError(runPlan, ['--document='], /got: nothing/);
    // plan and deploy take many files, and --document one file.
    await usageError(runDeploy, ['--document', '1', 'a.endpoint.yaml', 'b.endpoint.yaml'], /--document needs a single spec file/);
    await usageError(runPlan, ['--document', '0', 'a.endpoint.yaml', 'b.endpoint.yaml'], /--document needs a single spec file/);
    await usageError(runPlan, ['--format', 'yaml', 'a.endpoint.yaml'], /--format takes text, json or markdown; got: yaml/);
    await usageError(runDeploy, ['-y'], /^endpoint-studio deploy: a spec file is needed\n/);
    await usageError(runDeploy, ['--format=yaml', 'a.endpoint.yaml'], /--format takes text or json; got: yaml/);
    await usageError(
      runDeploy,
      ['--stall-after', '0', '--wait', 'a.endpoint.yaml'],
      /--stall-after takes a number of seconds greater than 0; got: 0/,
    );
    await usageError(runDeploy, ['--rollback-on-failure', 'a.endpoint.yaml'], /--rollback-on-failure goes with --wait/);
    await usageError(runPlan, ['--wait', 'a.endpoint.yaml'], /--wait is not an option of plan/);
    await usageError(runPull, [], /an endpoint id is needed/);
    await usageError(runPull, ['-y', 'abc123'], /--document and --yes are for plan and deploy/);
    const help = captureIo();
    assert.equal(await runPull(['-h'], help), 0);
    assert.match(help.stdout, /endpoint-studio pull \[--format yaml\|json\] <endpointId>/);
  });

  it('billing names its subcommand in an unknown-option error and refuses stray arguments', async () => {
    await usageError(runBilling, ['serverless', '-o', 'json', '--verbose'], /unknown option for billing serverless: --verbose/);
    await usageError(runBilling, ['serverless', '-o', 'csv'], /--output takes table or json; got: csv/);
    await usageError(runBilling, ['serverless', 'extra'], /unexpected argument: extra/);
    await usageError(runBilling, ['--output=json'], /name what to bill/);
    await usageError(runBilling, ['constructor'], /unknown billing command: constructor/);
  });

  it('emulator', async () => {
    const stream = (write: (text: string) => void): NodeJS.WritableStream =>
      ({
        write: (text: string) => {
          write(text);
          return true;
        },
      }) as unknown as NodeJS.WritableStream;
    const run = (args: string[], io: CliIo): Promise<number> =>
      runEmulatorCli(
        args,
        stream((text) => {
          io.out(text);
        }),
        stream((text) => {
          io.err(text);
        }),
      );
    await usageError(run, ['--port'], /^endpoint-studio emulator: --port needs a value\n/);
    await usageError(run, ['--port=70000'], /--port needs a port number from 0 to 65535/);
    await usageError(run, ['--jobs-port', '-1'], /--jobs-port needs a value/);
    await usageError(run, ['--time-scale', '0'], /--time-scale needs a positive number/);
    await usageError(run, ['--seed=1.5'], /--seed needs a whole number/);
    await usageError(run, ['--rate-limit', '1,2'], /--rate-limit needs three positive whole numbers: minute,hour,day/);
    await usageError(run, ['--host='], /--host needs a value/);
    await usageError(run, ['--api-key', 'k_same_1234', '--read-only-key=k_same_1234'], /--read-only-key must differ from --api-key/);
    await usageError(run, ['--no-admin=1'], /--no-admin takes no value/);
    await usageError(run, ['serve'], /unexpected argument: serve/);
    await usageError(run, ['--bogus'], /unknown option: --bogus/);
    const help = captureIo();
    assert.equal(await run(['-h'], help), 0);
    assert.match(help.stdout, /^Usage: endpoint-studio emulator \[options\]\n[\s\S]*--no-admin {10}disable/);
  });

  it('reach the terminal from the built command line as a message and exit 2, with no stack trace', () => {
    const cli = join(REPO_ROOT, 'dist', 'cli.js');
    const result = spawnSync(process.execPath, [cli, 'validate', '--bogus', 'a.endpoint.yaml'], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^endpoint-studio validate: unknown option: --bogus\n\nUsage: endpoint-studio validate/);
    assert.doesNotMatch(result.stderr, /TypeError|\n\s+at /);
  });
});
