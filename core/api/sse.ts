/**
 * Server-Sent Events over the HTTP core, resumed after every drop with `Last-Event-ID` so a
 * reader sees each event once: none lost across a reconnect, none repeated by the server's
 * backfill (events are deduplicated by id).
 */
import { ApiError } from './errors';
import { sleep, type HttpCore, type HttpRequest } from './http';

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
    const initialDelay = this.options.reconnectDelayMs ?? 500;
    const maxDelay = this.options.maxReconnectDelayMs ?? 15_000;
    let delay = initialDelay;
    let failures = 0;
    for (let connection = 0; ; connection++) {
      if (signal?.aborted) return;
      if (connection > 0) {
        this.reconnectCount++;
        try {
          await sleep(delay, signal);
        } catch {
          return;
        }
      }
      let reason = 'the server closed the stream';
      let opened: { response: Response; release: () => void };
      try {
        opened = await this.http.openStream({
          ...this.requestFor(this.cursor),
          ...(signal ? { signal } : {}),
          idempotent: false,
          read: true,
        });
      } catch (error) {
        if (signal?.aborted) return;
        if (!(error instanceof ApiError) || !isTransient(error) || failures >= (this.options.maxReconnects ?? Infinity)) throw error;
        failures++;
        delay =
          error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : nextDelay(delay, connection, initialDelay, maxDelay);
        this.options.onReconnect?.({ attempt: failures, lastEventId: this.cursor, reason: error.message });
        continue;
      }
      const parser = new SseParser();
      const body = opened.response.body;
      let delivered = false;
      if (body) {
        const reader = body.getReader();
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
              if (event.id) {
                if (seen.has(event.id)) continue;
                remember(seen, event.id);
                this.cursor = event.id;
              }
              delivered = true;
              yield event;
            }
          }
        } catch (error) {
          if (signal?.aborted) return;
          reason = idle.fired
            ? 'no data within the idle timeout'
            : `the connection dropped: ${this.http.redact(String((error as Error)?.message ?? error))}`;
        } finally {
          idle.stop();
          opened.release();
          reader.cancel().catch(() => undefined);
        }
      } else {
        opened.release();
      }
      if (signal?.aborted) return;
      if (parser.retryMs !== undefined) delay = parser.retryMs;
      if (delivered) {
        failures = 0;
        delay = parser.retryMs ?? initialDelay;
      } else {
        failures++;
        if (failures > (this.options.maxReconnects ?? Infinity)) {
          throw new ApiError({
            kind: 'network',
            title: 'Stream ended',
            detail: `${reason}; gave up after ${failures} reconnections without data`,
          });
        }
        delay = nextDelay(delay, connection, initialDelay, maxDelay);
      }
      this.options.onReconnect?.({ attempt: failures, lastEventId: this.cursor, reason });
    }
  }
}

function isTransient(error: ApiError): boolean {
  return error.network || error.timeout || error.server || error.rateLimited;
}

function nextDelay(current: number, connection: number, initial: number, max: number): number {
  return connection === 0 ? initial : Math.min(max, Math.max(initial, current * 2));
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
    timer.unref?.();
    return timer;
  }
}
