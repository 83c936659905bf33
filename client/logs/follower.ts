/**
 * Follows the logs of one worker, or of every worker of an endpoint merged into one sequence with
 * each row tagged by worker and source. Each worker has its own resumable stream (the API client
 * reconnects after a drop and resumes with `Last-Event-ID`, skipping lines already delivered); a
 * drop adds a marker row. `stop()` aborts every stream; `start()` again resumes each worker after
 * the last line it delivered, so pausing the connection (a hidden panel) neither loses nor repeats.
 * Free of the editor, so it runs against the emulator in a plain test.
 */
import type { ServerlessApi, WorkerLogStream } from '../../core/api/serverless';
import type { LogRow, SourceFilter } from './model';

export interface LogTarget {
  readonly endpointId: string;
  readonly endpointName: string;
  /** One worker; undefined for all workers of the endpoint. */
  readonly workerId?: string;
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
  private readonly running = new Set<string>();
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
    if (this.target.workerId) this.follow(this.target.workerId, controller.signal);
    else void this.followEndpoint(controller.signal);
  }

  /** Aborts every stream; what was delivered is remembered so `start` resumes after it. */
  stop(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.running.clear();
  }

  /** A row the panel adds itself (shown in order with the log lines). */
  marker(text: string, worker = ''): LogRow {
    const row: LogRow = { seq: ++this.seq, ts: new Date().toISOString(), worker, source: 'marker', text, id: '' };
    this.events.onRow(row);
    return row;
  }

  private async followEndpoint(signal: AbortSignal): Promise<void> {
    const interval = this.options.workerPollMs ?? 10_000;
    let first = true;
    while (!signal.aborted) {
      try {
        const list = await this.api.workers(this.target.endpointId, { signal });
        if (first && list.workers.length === 0) this.marker(`${this.target.endpointName} has no workers yet; waiting for one`);
        for (const worker of list.workers) if (!this.running.has(worker.id)) this.follow(worker.id, signal);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the signal can abort while the list is awaited; the loop condition's narrowing does not see that
        if (signal.aborted) return;
        if (first) {
          this.marker(`could not list the workers of ${this.target.endpointName}: ${(error as Error).message}`);
          this.events.onError?.('', error);
        }
      }
      first = false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, interval);
        signal.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  }

  private follow(workerId: string, signal: AbortSignal): void {
    this.running.add(workerId);
    const cursor = this.cursors.get(workerId);
    const stream: WorkerLogStream = this.api.workerLogs(this.target.endpointId, workerId, {
      signal,
      ...(this.options.source !== 'all' ? { source: this.options.source } : {}),
      tail: this.options.tail,
      ...(cursor !== undefined ? { lastEventId: cursor } : {}),
      ...(this.options.reconnectDelayMs !== undefined ? { reconnectDelayMs: this.options.reconnectDelayMs } : {}),
      onReconnect: ({ attempt, lastEventId, reason }) => {
        if (signal.aborted) return;
        this.reconnects++;
        const after = lastEventId ? `resuming after ${lastEventId}` : 'from the start (no line seen yet)';
        const retry = attempt > 1 ? ` (failed attempts in a row: ${attempt})` : '';
        this.marker(`stream dropped (${reason}); reconnecting, ${after}${retry}`, workerId);
      },
    });
    void (async () => {
      try {
        for await (const event of stream) {
          if (signal.aborted) break;
          this.cursors.set(workerId, event.id);
          this.events.onRow({ seq: ++this.seq, ts: event.ts, worker: workerId, source: event.source, text: event.line, id: event.id });
        }
      } catch (error) {
        if (signal.aborted) return;
        this.marker(`stream ended: ${(error as Error).message}`, workerId);
        this.events.onError?.(workerId, error);
      } finally {
        if (!signal.aborted) this.running.delete(workerId);
      }
    })();
  }
}
