/**
 * Per-key request quotas over fixed minute/hour/day windows, reported with the structured-field
 * `RateLimit` and `RateLimit-Policy` headers on every authenticated answer.
 */
import { ProblemError } from './http/problems';

export interface RateLimits {
  minute: number;
  hour: number;
  day: number;
}

/** Generous enough for an editor polling workers and logs, small enough that tests can set their own. */
export const DEFAULT_RATE_LIMITS: RateLimits = { minute: 600, hour: 20000, day: 200000 };

const WINDOWS = [
  { name: 'minute', seconds: 60 },
  { name: 'hour', seconds: 3600 },
  { name: 'day', seconds: 86400 },
] as const;

type WindowName = (typeof WINDOWS)[number]['name'];

interface Counter {
  windowStart: number;
  used: number;
}

export class RateLimiter {
  private readonly counters = new Map<string, Record<WindowName, Counter>>();

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  policyHeader(): string {
    return WINDOWS.map((w) => `"${w.name}";q=${this.limits[w.name]};w=${w.seconds}`).join(', ');
  }

  /**
   * Counts one request for `key` and returns the headers to send. Over quota it throws a 429
   * naming the window; when several are exhausted, the one that resets last, since waiting
   * for an earlier one would only earn another 429.
   */
  consume(key: string): Record<string, string> {
    const nowMs = this.now();
    const counters = this.countersFor(key, nowMs);
    const exhausted = WINDOWS.filter((w) => counters[w.name].used >= this.limits[w.name]);
    if (exhausted.length === 0) for (const w of WINDOWS) counters[w.name].used++;
    const headers = { RateLimit: this.stateHeader(counters, nowMs), 'RateLimit-Policy': this.policyHeader() };
    if (exhausted.length > 0) {
      const worst = exhausted.reduce((a, b) =>
        this.resetSeconds(counters[b.name], b.seconds, nowMs) > this.resetSeconds(counters[a.name], a.seconds, nowMs) ? b : a,
      );
      const retryAfter = this.resetSeconds(counters[worst.name], worst.seconds, nowMs);
      throw new ProblemError(429, `rate limit exceeded for the ${worst.name} window`, undefined, {
        ...headers,
        'Retry-After': String(retryAfter),
      });
    }
    return headers;
  }

  /** Headers for a forced 429 (fault injection) that leave the real counters alone. */
  forcedHeaders(key: string): Record<string, string> {
    const nowMs = this.now();
    const counters = this.countersFor(key, nowMs);
    return {
      RateLimit: this.stateHeader(counters, nowMs).replace(/"minute";r=\d+/, '"minute";r=0'),
      'RateLimit-Policy': this.policyHeader(),
    };
  }

  private countersFor(key: string, nowMs: number): Record<WindowName, Counter> {
    let counters = this.counters.get(key);
    if (!counters) {
      counters = { minute: { windowStart: 0, used: 0 }, hour: { windowStart: 0, used: 0 }, day: { windowStart: 0, used: 0 } };
      this.counters.set(key, counters);
    }
    for (const w of WINDOWS) {
      // Windows are aligned to the clock (every minute, hour, UTC day) like the service's resets.
      const start = Math.floor(nowMs / (w.seconds * 1000)) * w.seconds * 1000;
      if (counters[w.name].windowStart !== start) counters[w.name] = { windowStart: start, used: 0 };
    }
    return counters;
  }

  private resetSeconds(counter: Counter, seconds: number, nowMs: number): number {
    return Math.max(1, Math.ceil((counter.windowStart + seconds * 1000 - nowMs) / 1000));
  }

  private stateHeader(counters: Record<WindowName, Counter>, nowMs: number): string {
    return WINDOWS.map((w) => {
      const remaining = Math.max(0, this.limits[w.name] - counters[w.name].used);
      return `"${w.name}";r=${remaining};t=${this.resetSeconds(counters[w.name], w.seconds, nowMs)}`;
    }).join(', ');
  }
}
