/**
 * Reading the JSON paths that prefix problem `errors` entries (`$.gpu.excludedTypes[0]: ...`),
 * so a failed deploy can be placed on the spec line that caused it.
 */

export type ApiPathSegment = string | number;

export interface ProblemFieldError {
  /** The path as the service wrote it, e.g. `$.gpu.excludedTypes[0]`; `$` for the whole body. */
  path: string;
  /** `['gpu', 'excludedTypes', 0]`; empty for `$` or when the entry carried no path. */
  pathSegments: ApiPathSegment[];
  message: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*/;

/**
 * Parses `$`, `.name`, `[3]`, `["quoted key"]` and `['quoted key']` segments. Returns undefined
 * when the text is not a path, so the caller can keep the whole entry as a message instead.
 */
export function parseJsonPath(text: string): ApiPathSegment[] | undefined {
  if (!text.startsWith('$')) return undefined;
  const segments: ApiPathSegment[] = [];
  let i = 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '.') {
      const match = IDENTIFIER.exec(text.slice(i + 1));
      if (!match) return undefined;
      segments.push(match[0]);
      i += 1 + match[0].length;
    } else if (ch === '[') {
      const close = readBracket(text, i);
      if (!close) return undefined;
      segments.push(close.segment);
      i = close.end;
    } else {
      return undefined;
    }
  }
  return segments;
}

function readBracket(text: string, open: number): { segment: ApiPathSegment; end: number } | undefined {
  const quote = text[open + 1];
  if (quote === '"' || quote === "'") {
    let j = open + 2;
    let raw = '';
    while (j < text.length && text[j] !== quote) {
      if (text[j] === '\\' && j + 1 < text.length) {
        raw += text[j] + text[j + 1];
        j += 2;
      } else {
        raw += text[j++];
      }
    }
    if (text[j] !== quote || text[j + 1] !== ']') return undefined;
    return { segment: unescapeQuoted(raw, quote), end: j + 2 };
  }
  const close = text.indexOf(']', open);
  if (close < 0) return undefined;
  const inner = text.slice(open + 1, close);
  if (!/^\d+$/.test(inner)) return undefined;
  return { segment: Number(inner), end: close + 1 };
}

function unescapeQuoted(raw: string, quote: string): string {
  if (quote === '"') {
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      // Fall through: an odd escape is still better shown than dropped.
    }
  }
  return raw.replace(/\\(.)/g, '$1');
}

/**
 * Splits one `errors` entry into its path and message. The path ends at the first `: ` that
 * follows a parseable path; quoted keys may themselves contain `: `, so every candidate is tried.
 */
export function parseProblemFieldError(entry: string): ProblemFieldError {
  if (entry.startsWith('$')) {
    let from = 0;
    for (;;) {
      const at = entry.indexOf(': ', from);
      const candidate = at < 0 ? entry : entry.slice(0, at);
      const segments = parseJsonPath(candidate.trimEnd());
      if (segments) return { path: candidate.trimEnd(), pathSegments: segments, message: at < 0 ? '' : entry.slice(at + 2) };
      if (at < 0) break;
      from = at + 1;
    }
  }
  return { path: '$', pathSegments: [], message: entry };
}
