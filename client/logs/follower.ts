/**
 * The Logs panel's side of following worker logs: the streams themselves (one per worker, resumed
 * after a drop, new workers picked up) are `followWorkerLogs`; this turns what it reports into the
 * panel's rows, numbered in one order across workers, with a marker row for a drop or an end.
 * `stop()` aborts every stream; `start()` again resumes each worker after the last line it
 * delivered, so pausing the connection (a hidden panel) neither loses nor repeats. Free of the
 * editor, so it runs against the emulator in a plain test.
 */
import type { ServerlessApi } from '../../core/api/serverless';
import { followWorkerLogs, type FollowStatus, type WorkerLogLine } from '../../core/operations';
import type { LogRow, SourceFilter } from './model';

export interface LogTarget {
  readonly endpointId: string;
  readonly endpointName: string;
  /** One worker; undefined for all workers of the endpoint. */
  readonly workerId?: string;
  /** A chosen set of workers, merged (those a stalled rollout names); when given, `workerId` is not. */
  readonly workerIds?: readonly string[];
}

export interface FollowOptions {
  readonly source: SourceFilter;
  /** Backfill lines per worker on the first connection. */
  readonly tail: number;
  /** How often an endpoint's worker list is read again to follow new workers. Default 10 s. */
  readonly workerPollMs?: number;
  readonly reconnectDelayMs?: number;
}

export interface FollowerEvents {
  onRow(row: LogRow): void;
  /** A stream ended for good (the worker is gone, the key was refused): already shown as a marker. */
  onError?(workerId: string, error: unknown): void;
}

export class LogFollower {
  private seq = 0;
  private controller: AbortController | undefined;
  /** Per worker, the id of the last line delivered: where a restart resumes. */
  private readonly cursors = new Map<string, string>();
  /** Reconnections across all streams since `start` (a drop followed by a resume). */
  reconnects = 0;

  constructor(
    private readonly api: Pick<ServerlessApi, 'workerLogs' | 'workers'>,
    readonly target: LogTarget,
    readonly options: FollowOptions,
    private readonly events: FollowerEvents,
  ) {}

  get active(): boolean {
    return this.controller !== undefined;
  }

  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    const { source, tail, workerPollMs, reconnectDelayMs } = this.options;
    const input = {
      endpointId: this.target.endpointId,
      tail,
      cursors: this.cursors,
      ...(source !== 'all' ? { source } : {}),
      ...(workerPollMs !== undefined ? { workerPollMs } : {}),
      ...(reconnectDelayMs !== undefined ? { reconnectDelayMs } : {}),
    };
    const handlers = {
      signal: controller.signal,
      onLines: (lines: readonly WorkerLogLine[]) => {
        for (const line of lines) this.events.onRow(this.row(line));
      },
      onStatus: (status: FollowStatus) => {
        this.status(status);
      },
    };
    const { workerId, workerIds } = this.target;
    // A chosen set is one stream per worker, sharing the cursors and the signal as an endpoint's follow does.
    const workers = workerIds ?? (workerId !== undefined ? [workerId] : undefined);
    if (workers === undefined) void followWorkerLogs({ serverless: this.api }, input, handlers);
    else for (const id of workers) void followWorkerLogs({ serverless: this.api }, { ...input, workerId: id }, handlers);
  }

  /** Aborts every stream; what was delivered is remembered so `start` resumes after it. */
  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
  }

  /** A row the panel adds itself (shown in order with the log lines). */
  private marker(text: string, worker = ''): void {
    this.events.onRow({ seq: ++this.seq, ts: new Date().toISOString(), worker, source: 'marker', text, id: '' });
  }

  private row(line: WorkerLogLine): LogRow {
    return { seq: ++this.seq, ts: line.ts, worker: line.workerId, source: line.source, text: line.line, id: line.id };
  }

  private status(status: FollowStatus): void {
    const name = this.target.endpointName;
    switch (status.kind) {
      case 'following':
        return;
      case 'waiting':
        this.marker(`${name} has no workers yet; waiting for one`);
        return;
      case 'reconnecting':
        this.reconnects++;
        this.marker(status.message, status.workerId);
        return;
      case 'ended':
        this.marker(status.message, status.workerId);
        this.events.onError?.(status.workerId, status.error);
        return;
      case 'listFailed':
        this.marker(
          `could not list the workers of ${name}: ${status.error instanceof Error ? status.error.message : String(status.error)}`,
        );
        this.events.onError?.('', status.error);
        return;
    }
  }
}
