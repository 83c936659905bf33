/**
 * A container that takes long to become ready, as one that loads a large model does. An image
 * whose name contains `slowboot` behaves so: its workers pull the image, start (`startedAt` is
 * set), then stay INITIALIZING for the boot time before they are ready, which lets tests and users
 * measure a cold start (deploy, first worker started, first worker ready, first job done) offline.
 * The boot time follows the word: `slowboot-90s`, `slowboot-2m`, `slowboot-500ms`, `slowboot-45`
 * (seconds); plain `slowboot` is 60 s. All of it is simulated time.
 */

const DEFAULT_BOOT_MS = 60_000;
/** As long as the longest handler run the simulation accepts. */
const MAX_BOOT_MS = 24 * 3600 * 1000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Simulated ms between the container's start and its readiness: 0 for an image that boots at once. */
export function slowBootMs(image: string): number {
  const match = /slowboot(?:-(\d{1,9})(ms|s|m)?(?![a-z]))?/i.exec(image);
  if (!match) return 0;
  // Both groups are optional, so either may be missing from the match.
  const [, digits, unit] = match as (string | undefined)[];
  if (digits === undefined) return DEFAULT_BOOT_MS;
  return Math.min(MAX_BOOT_MS, Number(digits) * UNIT_MS[(unit ?? 's').toLowerCase()]);
}

/** What the container prints while it boots. */
export function bootingLines(bootMs: number): string[] {
  return [`Loading model weights (about ${formatDuration(bootMs)})...`];
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds} s` : `${seconds.toFixed(1)} s`;
}
