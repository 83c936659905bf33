/**
 * Worker log lines. Every line gets a sequence number from one counter, so the SSE event id
 * (`<ts>/<seq>`, the shape the service uses) orders lines totally: a client that resumes with
 * `Last-Event-ID` gets exactly the lines after the last one it saw, even within one millisecond.
 */

export type LogSource = 'container' | 'system';

export interface LogLine {
  readonly seq: number;
  readonly ts: string;
  readonly source: LogSource;
  readonly line: string;
}

export type LogListener = (line: LogLine) => void;

/** Per worker; far more than `tail`'s maximum of 5000, so a backfill is never short. */
const MAX_LINES_PER_WORKER = 10000;

export function eventId(line: LogLine): string {
  return `${line.ts}/${String(line.seq).padStart(12, '0')}`;
}

/** The sequence number inside an event id; undefined when the id is not one of ours. */
export function seqFromEventId(id: string): number | undefined {
  const match = /\/(\d{1,15})$/.exec(id.trim());
  return match ? Number(match[1]) : undefined;
}

export class LogStore {
  private seq = 0;
  private readonly lines = new Map<string, LogLine[]>();
  private readonly listeners = new Map<string, Set<LogListener>>();

  constructor(private readonly now: () => number = Date.now) {}

  append(workerId: string, source: LogSource, line: string): void {
    const entry: LogLine = { seq: ++this.seq, ts: new Date(this.now()).toISOString(), source, line };
    const list = this.lines.get(workerId) ?? [];
    this.lines.set(workerId, list);
    list.push(entry);
    if (list.length > MAX_LINES_PER_WORKER) list.splice(0, list.length - MAX_LINES_PER_WORKER);
    for (const listener of this.listeners.get(workerId) ?? []) {
      try {
        listener(entry);
      } catch {
        // A broken subscriber (closed socket) must not stop the others or the simulation.
      }
    }
  }

  all(workerId: string): readonly LogLine[] {
    return this.lines.get(workerId) ?? [];
  }

  subscribe(workerId: string, listener: LogListener): () => void {
    const set = this.listeners.get(workerId) ?? new Set();
    this.listeners.set(workerId, set);
    set.add(listener);
    return () => set.delete(listener);
  }
}
