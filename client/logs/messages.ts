/**
 * The messages between the Logs view and its webview. What the webview sends is untrusted input:
 * only the known types with fields of the expected types (and sizes) are accepted.
 */
import { isSourceFilter, TAIL_CHOICES, type LogRow, type SourceFilter } from './model';

export type FromWebview =
  | { type: 'ready' }
  | { type: 'pause'; paused: boolean }
  | { type: 'source'; source: SourceFilter }
  | { type: 'tail'; tail: number }
  | { type: 'filter'; text: string; regex: boolean }
  | { type: 'clear' }
  | { type: 'save' };

export type ToWebview =
  | {
      type: 'reset';
      rows: LogRow[];
      maxLines: number;
      target: string;
      merged: boolean;
      state: { source: SourceFilter; tail: number; paused: boolean; filter: string; regex: boolean; tails: number[] };
    }
  | { type: 'append'; rows: LogRow[] }
  | { type: 'status'; text: string; live: boolean }
  | { type: 'filterError'; error: string };

const MAX_FILTER_LENGTH = 500;

/** The message, or undefined when it is not exactly one the view understands. */
export function parseWebviewMessage(raw: unknown): FromWebview | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  const keys = Object.keys(m);
  const only = (...allowed: string[]): boolean => keys.every((k) => k === 'type' || allowed.includes(k));
  switch (m.type) {
    case 'ready':
    case 'clear':
    case 'save':
      return only() ? { type: m.type } : undefined;
    case 'pause':
      return only('paused') && typeof m.paused === 'boolean' ? { type: 'pause', paused: m.paused } : undefined;
    case 'source':
      return only('source') && isSourceFilter(m.source) ? { type: 'source', source: m.source } : undefined;
    case 'tail':
      return only('tail') && typeof m.tail === 'number' && (TAIL_CHOICES as readonly number[]).includes(m.tail)
        ? { type: 'tail', tail: m.tail }
        : undefined;
    case 'filter':
      return only('text', 'regex') && typeof m.text === 'string' && m.text.length <= MAX_FILTER_LENGTH && typeof m.regex === 'boolean'
        ? { type: 'filter', text: m.text, regex: m.regex }
        : undefined;
    default:
      return undefined;
  }
}
