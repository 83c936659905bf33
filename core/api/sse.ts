/**
 * Server-Sent Events over the HTTP core, resumed after every drop with `Last-Event-ID` so a
 * reader sees each event once: none lost across a reconnect, none repeated by the server's
 * backfill (events are deduplicated by id).
 */
import { ApiError } from './errors';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HttpCore, HttpRequest } from './http';

export interface SseEvent {
  /** Empty when the server sent none for this event. */
  id: string;
  event: string;
  data: string;
}

/** Incremental `text/event-stream` parser (WHATWG rules: CR, LF or CRLF line ends; `:` comments). */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private eventType = '';
  private eventId: string | undefined;
  private sawBom = false;
  /** The server's `retry:` hint, in ms. */
  retryMs: number | undefined;

  push(chunk: string): SseEvent[] {
    let text = this.buffer + chunk;
    if (!this.sawBom && text.length > 0) {
      this.sawBom = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== '\n' && ch !== '\r') continue;
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (ch === '\r' && i === text.length - 1) break;
      const line = text.slice(start, i);
      if (ch === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    this.buffer = text.slice(start);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.eventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const hadData = this.data.length > 0;
    const event: SseEvent = { id: this.eventId ?? '', event: this.eventType || 'message', data: this.data.join('\n') };
    this.data = [];
    this.eventType = '';
    // Unlike EventSource we do not carry an id over to later events: an id names one event here.
    this.eventId = undefined;
    return hadData ? event : undefined;
  }
}

export interface ResumeOptions {
  signal?: AbortSignal;
  /** Resume after this event (for example one saved before the editor was reloaded). */
  lastEventId?: string;
  /** Consecutive failed (re)connections before the stream gives up; default unlimited. */
  maxReconnects?: number;
  /** First wait before reconnecting; doubles up to `maxReconnectDelayMs`. Default 500 ms. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** No byte (not even a heartbeat) for this long counts as a dead connection. Default 60 s. */
  idleTimeoutMs?: number;
  onReconnect?: (info: { attempt: number; lastEventId: string | undefined; reason: string }) => void;
  /** Each time a connection is open: the server's backfill follows at once, so a snapshot can time its wait from here. */
  onOpen?: () => void;
}

/** Ids remembered for deduplication; the service's backfill is at most 5000 lines. */
const SEEN_LIMIT = 10_000;

export class ResumableEventStream implements AsyncIterable<SseEvent> {
  private cursor: string | undefined;
  private reconnectCount = 0;

  constructor(
    private readonly http: HttpCore,
    /** Builds the request for a (re)connection; `lastEventId` is set once any event had an id. */
    private readonly requestFor: (lastEventId: string | undefined) => HttpRequest,
    private readonly options: ResumeOptions = {},
  ) {
    this.cursor = options.lastEventId;
  }

  /** The id of the last event delivered: save it to resume later. */
  get lastEventId(): string | undefined {
    return this.cursor;
  }

  get reconnects(): number {
    return this.reconnectCount;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SseEvent> {
    const { signal } = this.options;
    const seen = new Set<string>();
    const schedule = new ReconnectSchedule(
      this.options.reconnectDelayMs ?? 500,
      this.options.maxReconnectDelayMs ?? 15_000,
      this.options.maxReconnects ?? Infinity,
    );
    for (let connection = 0; ; connection++) {
      if (signal?.aborted) return;
      if (connection > 0 && !(await this.pauseBeforeReconnect(schedule.delay))) return;
      const opened = await this.open(schedule, connection);
      if (opened === 'aborted') return;
      if (opened === 'retry') continue;
      this.options.onOpen?.();
      const ended = yield* this.deliver(opened, seen);
      if (signal?.aborted) return;
      if (!schedule.ended(connection, ended.delivered, ended.retryMs)) {
        throw new ApiError({
          kind: 'network',
          title: 'Stream ended',
          detail: `${ended.reason}; gave up after ${schedule.failures} reconnections without data`,
        });
      }
      this.options.onReconnect?.({ attempt: schedule.failures, lastEventId: this.cursor, reason: ended.reason });
    }
  }

  /** False when the caller cancelled during the pause. */
  private async pauseBeforeReconnect(delay: number): Promise<boolean> {
    this.reconnectCount++;
    try {
      await sleep(delay, undefined, { signal: this.options.signal });
      return true;
    } catch {
      return false;
    }
  }

  /** A new connection; 'retry' after a transient failure with retries left (said through `onReconnect`). */
  private async open(schedule: ReconnectSchedule, connection: number): Promise<OpenStream | 'retry' | 'aborted'> {
    const { signal } = this.options;
    try {
      return await this.http.openStream({ ...this.requestFor(this.cursor), ...(signal ? { signal } : {}), idempotent: false, read: true });
    } catch (error) {
      if (signal?.aborted) return 'aborted';
      if (!(error instanceof ApiError) || !isTransient(error) || !schedule.openFailed(connection, error.retryAfterSeconds)) throw error;
      this.options.onReconnect?.({ attempt: schedule.failures, lastEventId: this.cursor, reason: error.message });
      return 'retry';
    }
  }

  /** Yields the connection's events not seen before until it ends, and then says how it ended. */
  private async *deliver(opened: OpenStream, seen: Set<string>): AsyncGenerator<SseEvent, ConnectionEnd> {
    const parser = new SseParser();
    const body = opened.response.body;
    let delivered = false;
    let reason = 'the server closed the stream';
    if (!body) {
      opened.release();
      return { delivered, reason, retryMs: undefined };
    }
    const reader = body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const decoder = new TextDecoder();
    const idle = new IdleWatch(this.options.idleTimeoutMs ?? 60_000, () => {
      opened.release();
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        idle.touch();
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          if (!this.isNew(event, seen)) continue;
          delivered = true;
          yield event;
        }
      }
    } catch (error) {
      reason = idle.fired
        ? 'no data within the idle timeout'
        : `the connection dropped: ${this.http.redact(error instanceof Error ? error.message : String(error))}`;
    } finally {
      idle.stop();
      opened.release();
      reader.cancel().catch(() => undefined);
    }
    return { delivered, reason, retryMs: parser.retryMs };
  }

  /** False for an event the server's backfill repeats; moves the resume cursor past a new one. */
  private isNew(event: SseEvent, seen: Set<string>): boolean {
    if (!event.id) return true;
    if (seen.has(event.id)) return false;
    remember(seen, event.id);
    this.cursor = event.id;
    return true;
  }
}

type OpenStream = Awaited<ReturnType<HttpCore['openStream']>>;

/** How a connection that opened came to an end. */
interface ConnectionEnd {
  readonly delivered: boolean;
  readonly reason: string;
  /** The server's `retry:` hint, in ms. */
  readonly retryMs: number | undefined;
}

/**
 * When to reconnect: the delay doubles while connections fail (or follows the server's hint) and resets once
 * one delivers; after `limit` failures in a row the stream gives up.
 */
class ReconnectSchedule {
  delay: number;
  /** Failed connections in a row. */
  failures = 0;

  constructor(
    private readonly initial: number,
    private readonly max: number,
    private readonly limit: number,
  ) {
    this.delay = initial;
  }

  /** A connection that could not be opened; false when no retry is left. */
  openFailed(connection: number, retryAfterSeconds: number | undefined): boolean {
    if (this.failures >= this.limit) return false;
    this.failures++;
    this.delay = retryAfterSeconds !== undefined ? retryAfterSeconds * 1000 : this.next(connection);
    return true;
  }

  /** A connection that opened and then ended; false when it delivered nothing and no retry is left. */
  ended(connection: number, delivered: boolean, retryMs: number | undefined): boolean {
    if (delivered) {
      this.failures = 0;
      this.delay = retryMs ?? this.initial;
      return true;
    }
    if (retryMs !== undefined) this.delay = retryMs;
    this.failures++;
    if (this.failures > this.limit) return false;
    this.delay = this.next(connection);
    return true;
  }

  private next(connection: number): number {
    return connection === 0 ? this.initial : Math.min(this.max, Math.max(this.initial, this.delay * 2));
  }
}

function isTransient(error: ApiError): boolean {
  return error.network || error.timeout || error.server || error.rateLimited;
}

function remember(seen: Set<string>, id: string): void {
  seen.add(id);
  if (seen.size > SEEN_LIMIT) {
    const oldest = seen.values().next().value;
    if (oldest !== undefined) seen.delete(oldest);
  }
}

/** Calls `onIdle` when `touch` has not been called for `ms`. */
class IdleWatch {
  fired = false;
  private timer: ReturnType<typeof setTimeout>;
  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.timer = this.arm();
  }
  touch(): void {
    clearTimeout(this.timer);
    this.timer = this.arm();
  }
  stop(): void {
    clearTimeout(this.timer);
  }
  private arm(): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.fired = true;
      this.onIdle();
    }, this.ms);
    timer.unref();
    return timer;
  }
}
