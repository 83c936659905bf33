/**
 * The container command in its three spellings (`args` as a shell string, `args` as a JSON
 * object string, `entrypoint`/`cmd` arrays), decoded to one form so they can be compared.
 */
import { isRecord } from './ownData';

interface ContainerCommand {
  /** `undefined`: the image's own ENTRYPOINT is kept. */
  readonly entrypoint?: string[];
  readonly cmd: string[];
}

export type DecodedArgs = { ok: true; command: ContainerCommand } | { ok: false; reason: string };

export function decodeArgs(args: string): DecodedArgs {
  const trimmed = args.trim();
  if (trimmed === '') return { ok: true, command: { entrypoint: [], cmd: [] } };
  if (trimmed.startsWith('{')) return decodeJsonArgs(trimmed);
  const split = splitShellWords(args);
  return split.ok ? { ok: true, command: { cmd: split.words } } : split;
}

function decodeJsonArgs(text: string): DecodedArgs {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: 'args starts with "{" but is not valid JSON; write {"entrypoint": [...], "cmd": [...]} or a plain command line',
    };
  }
  if (!isRecord(parsed)) return { ok: false, reason: 'args in JSON form must be an object with entrypoint and/or cmd' };
  const unknown = Object.keys(parsed).filter((k) => k !== 'entrypoint' && k !== 'cmd');
  if (unknown.length > 0) return { ok: false, reason: `args in JSON form takes only entrypoint and cmd; unknown key: ${unknown[0]}` };
  for (const key of ['entrypoint', 'cmd']) {
    const value = parsed[key];
    if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      return { ok: false, reason: `args in JSON form needs ${key} as an array of strings` };
    }
  }
  return {
    ok: true,
    command: { entrypoint: (parsed.entrypoint as string[] | undefined) ?? [], cmd: (parsed.cmd as string[] | undefined) ?? [] },
  };
}

/** POSIX-style word splitting: single quotes literal, double quotes with backslash escapes, backslash outside quotes. */
export function splitShellWords(line: string): { ok: true; words: string[] } | { ok: false; reason: string } {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else current += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1])) current += line[++i];
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) return { ok: false, reason: `args has an unclosed ${quote === '"' ? 'double' : 'single'} quote` };
  if (inWord) words.push(current);
  return { ok: true, words };
}

export function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
