/**
 * The log panel's data, free of the editor so it can be tested on its own: a ring of lines with a
 * fixed capacity (memory stays bounded however long the stream runs), the text/regex filter, and
 * the line format used when saving.
 */

/** One row of the panel: a log line, or a marker the panel adds (a reconnect, a stream that ended). */
export interface LogRow {
  /** Increases by one per row added, across workers: the panel's order. */
  readonly seq: number;
  readonly ts: string;
  readonly worker: string;
  /** `container` or `system` for a log line; `marker` for a row the panel added. */
  readonly source: string;
  readonly text: string;
  /** The SSE event id of a log line, empty for markers: what tells a repeat from a new line. */
  readonly id: string;
}

/** A fixed-capacity ring: pushing past the capacity drops the oldest rows. */
export class RingBuffer<T> {
  private items: (T | undefined)[];
  private start = 0;
  private count = 0;
  /** Rows dropped because the ring was full, since the last clear. */
  dropped = 0;

  constructor(private cap: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`capacity must be a positive integer; got ${cap}`);
    this.items = new Array<T | undefined>(cap);
  }

  get capacity(): number {
    return this.cap;
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    if (this.count < this.cap) {
      this.items[(this.start + this.count) % this.cap] = item;
      this.count++;
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.cap;
    this.dropped++;
  }

  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.cap] as T);
    return out;
  }

  clear(): void {
    this.items = new Array<T | undefined>(this.cap);
    this.start = 0;
    this.count = 0;
    this.dropped = 0;
  }

  /** Keeps the newest rows that fit the new capacity. */
  resize(capacity: number): void {
    const kept = this.toArray().slice(-capacity);
    this.cap = capacity;
    this.clear();
    for (const item of kept) this.push(item);
  }
}

export interface LineFilter {
  readonly text: string;
  readonly regex: boolean;
}

/** A predicate for rows, or an error message for an invalid regular expression. Markers always pass. */
export function compileFilter(filter: LineFilter): { test: (row: LogRow) => boolean } | { error: string } {
  const text = filter.text;
  if (text === '') return { test: () => true };
  let match: (s: string) => boolean;
  if (filter.regex) {
    try {
      const re = new RegExp(text, 'i');
      match = (s) => re.test(s);
    } catch (error) {
      return { error: (error as Error).message };
    }
  } else {
    const needle = text.toLowerCase();
    match = (s) => s.toLowerCase().includes(needle);
  }
  return { test: (row) => row.source === 'marker' || match(row.text) || match(row.worker) };
}

/** `2026-01-01T00:00:00.000Z [worker/container] text`: one row as saved to a file. */
export function formatRow(row: LogRow, tagWorker: boolean): string {
  const tag = tagWorker ? `${row.worker}/${row.source}` : row.source;
  return row.source === 'marker' ? `${row.ts} ----- ${row.text} -----` : `${row.ts} [${tag}] ${row.text}`;
}

export type SourceFilter = 'all' | 'container' | 'system';

export const TAIL_CHOICES = [0, 100, 500, 1000, 5000] as const;

export function isSourceFilter(value: unknown): value is SourceFilter {
  return value === 'all' || value === 'container' || value === 'system';
}
