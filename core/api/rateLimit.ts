/**
 * The service's quota headers: `RateLimit` (remaining `r`, seconds to reset `t`) and
 * `RateLimit-Policy` (quota `q`, window length `w`), both structured-field lists with one member
 * per window (`minute`, `hour`, `day`). Both are optional: exempt callers get neither.
 */
import { defined } from './records';

export interface RateLimitWindow {
  /** `minute`, `hour`, `day`, or whatever else the service names. */
  name: string;
  remaining?: number;
  resetSeconds?: number;
  quota?: number;
  windowSeconds?: number;
}

export interface RateLimitSnapshot {
  /** In the order the service listed them. */
  windows: RateLimitWindow[];
  /** Client clock (ms) when the answer carrying these headers arrived. */
  observedAt: number;
  /** The window closest to running out (lowest remaining share), what a status bar should show. */
  tightest?: RateLimitWindow;
}

type StructuredValue = string | number | boolean;

export interface StructuredListMember {
  item: StructuredValue;
  params: Record<string, StructuredValue>;
}

/**
 * A tolerant reader of RFC 8941 lists of items with parameters. Inner lists and byte sequences
 * never occur in these headers; a malformed member is skipped rather than failing the whole
 * header, because quota display must never break a request.
 */
export function parseStructuredList(header: string): StructuredListMember[] {
  const members: StructuredListMember[] = [];
  for (const raw of splitTopLevel(header, ',')) {
    const parts = splitTopLevel(raw, ';').map((p) => p.trim());
    if (parts.length === 0 || parts[0] === '') continue;
    const item = parseBareValue(parts[0]);
    if (item === undefined) continue;
    const params: Record<string, StructuredValue> = {};
    for (const param of parts.slice(1)) {
      const eq = param.indexOf('=');
      const key = (eq < 0 ? param : param.slice(0, eq)).trim().toLowerCase();
      if (!/^[a-z*][a-z0-9_.*-]*$/.test(key)) continue;
      const value = eq < 0 ? true : parseBareValue(param.slice(eq + 1).trim());
      if (value !== undefined) params[key] = value;
    }
    members.push({ item, params });
  }
  return members;
}

/** Splits on `separator` outside double-quoted strings. */
function splitTopLevel(text: string, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '\\' && i + 1 < text.length) {
      current += ch + text[++i];
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === separator && !quoted) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out;
}

function parseBareValue(text: string): StructuredValue | undefined {
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) return undefined;
    return text.slice(1, -1).replace(/\\(["\\])/g, '$1');
  }
  if (text === '?1') return true;
  if (text === '?0') return false;
  if (/^-?\d{1,15}(\.\d{1,3})?$/.test(text)) return Number(text);
  if (/^[A-Za-z*][\w:/!#$%&'*+.^`|~-]*$/.test(text)) return text;
  return undefined;
}

function integerParam(params: Record<string, StructuredValue>, key: string): number | undefined {
  const value = params[key];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Builds a snapshot from the two headers; undefined when neither is present (exempt caller or 401). */
export function parseRateLimitHeaders(
  state: string | null | undefined,
  policy: string | null | undefined,
  observedAt = Date.now(),
): RateLimitSnapshot | undefined {
  if (!state && !policy) return undefined;
  const byName = new Map<string, RateLimitWindow>();
  const windowFor = (name: string): RateLimitWindow => {
    const window = byName.get(name) ?? { name };
    byName.set(name, window);
    return window;
  };
  for (const member of state ? parseStructuredList(state) : []) {
    const window = windowFor(String(member.item));
    window.remaining = integerParam(member.params, 'r');
    window.resetSeconds = integerParam(member.params, 't');
  }
  for (const member of policy ? parseStructuredList(policy) : []) {
    const window = windowFor(String(member.item));
    window.quota = integerParam(member.params, 'q');
    window.windowSeconds = integerParam(member.params, 'w');
  }
  const windows = [...byName.values()].map(defined);
  if (windows.length === 0) return undefined;
  const tightest = tightestWindow(windows);
  return { windows, observedAt, ...(tightest ? { tightest } : {}) };
}

function tightestWindow(windows: RateLimitWindow[]): RateLimitWindow | undefined {
  let best: { window: RateLimitWindow; share: number } | undefined;
  for (const window of windows) {
    if (window.remaining === undefined) continue;
    const share = window.quota ? window.remaining / window.quota : window.remaining;
    if (!best || share < best.share) best = { window, share };
  }
  return best?.window;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
