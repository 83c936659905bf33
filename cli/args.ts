/**
 * The flags of every `endpoint-studio` command, read by node:util's `parseArgs` in strict mode. Its complaints
 * are TypeErrors worded for programmers ("Option '-f, --format <value>' argument missing"); here each becomes
 * the short reason a command prints before its usage text, with exit status 2, the same way for every command.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './inputs';

type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

/** Every command takes -h/--help; it is read here, so no command declares it. */
const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

/** What a command accepts on its command line, and what it prints about it. */
export interface CommandLineSpec<O extends OptionSpecs, P extends boolean> {
  /** As messages name it: `validate`, `emulator`, ... */
  readonly command: string;
  /** Printed for --help, and after every usage error. */
  readonly usage: string;
  readonly options: O;
  /** True for commands that take files or ids after their flags. */
  readonly allowPositionals: P;
}

/** What `parseArgs` makes of a command line: typed values (defaults applied) and, where allowed, positionals. */
export type CommandLine<O extends OptionSpecs, P extends boolean> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>
>;

/** Why a command line was refused, in the words the commands print. */
export interface ArgsProblem {
  readonly kind: 'unknownOption' | 'missingValue' | 'unexpectedValue' | 'unexpectedArgument' | 'other';
  /** The flag or argument at fault, as typed (a flag given by its short form is named by its long one). */
  readonly subject: string;
  /** `unknown option: --bogus`, `--catalog needs a value`, ... */
  readonly reason: string;
}

/**
 * The parsed command line; or, once help or a usage error has been printed, the exit status (0 or 2).
 * Asking for help is never a usage error: -h/--help wins over any other flag, good or bad.
 * `describe` rewords a problem for a command that says more (a subcommand's name, say).
 */
export function readCommandLine<const O extends OptionSpecs, const P extends boolean>(
  spec: CommandLineSpec<O, P>,
  args: readonly string[],
  io: CliIo,
  describe: (problem: ArgsProblem) => string = (problem) => problem.reason,
): CommandLine<O, P> | number {
  const options = { ...spec.options, ...HELP_OPTION };
  let parsed: CommandLine<O, P> & { values: { help?: boolean } };
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: spec.allowPositionals });
  } catch (error) {
    const problem = argsProblem(error, options);
    if (!problem) throw error;
    if (helpRequested(args, options)) return printHelp(spec, io);
    return usageError(spec, io, describe(problem));
  }
  if (parsed.values.help) return printHelp(spec, io);
  return parsed;
}

/** Prints `endpoint-studio <command>: <problem>` and the usage text; returns the exit status of a usage error. */
export function usageError(spec: Pick<CommandLineSpec<OptionSpecs, boolean>, 'command' | 'usage'>, io: CliIo, problem: string): 2 {
  io.err(`endpoint-studio ${spec.command}: ${problem}\n\n${spec.usage}`);
  return 2;
}

function printHelp(spec: CommandLineSpec<OptionSpecs, boolean>, io: CliIo): 0 {
  io.out(spec.usage.endsWith('\n') ? spec.usage : `${spec.usage}\n`);
  return 0;
}

/** Read leniently, so that a bad flag next to --help does not hide it; option values are still told apart from it. */
function helpRequested(args: readonly string[], options: OptionSpecs): boolean {
  return parseArgs({ args: [...args], options, strict: false, allowPositionals: true }).values.help === true;
}

/** A usage problem for a `parseArgs` error; `undefined` for anything else, which is a bug to be thrown. */
export function argsProblem(error: unknown, options: OptionSpecs): ArgsProblem | undefined {
  const code = error instanceof TypeError && 'code' in error ? error.code : undefined;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return undefined;
  const message = (error as TypeError).message;
  // Each message quotes what it is about first: '--bogus', 'extra', '-f, --format <value>'.
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return { kind: 'unknownOption', subject: quoted, reason: `unknown option: ${quoted}` };
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return { kind: 'unexpectedArgument', subject: quoted, reason: `unexpected argument: ${quoted}` };
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = optionName(quoted, options);
      if (name === undefined) break;
      // A string flag without its value (or followed by another flag); a boolean flag given one (--yes=1).
      return options[name].type === 'string'
        ? { kind: 'missingValue', subject: `--${name}`, reason: `--${name} needs a value` }
        : { kind: 'unexpectedValue', subject: `--${name}`, reason: `--${name} takes no value` };
    }
  }
  return { kind: 'other', subject: quoted, reason: message.split('\n')[0] };
}

/** The long name of the flag a message quotes as `--format`, `-f` or `-f, --format <value>`. */
function optionName(quoted: string, options: OptionSpecs): string | undefined {
  const long = /--([\w-]+)/.exec(quoted)?.[1];
  if (long !== undefined) return Object.hasOwn(options, long) ? long : undefined;
  const short = /^-(\w)\b/.exec(quoted)?.[1];
  if (short === undefined) return undefined;
  return Object.keys(options).find((name) => options[name].short === short);
}
