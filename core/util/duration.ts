/**
 * One way to say how long something took, so a job's times read the same in the editor, the CLI and a
 * rollout report: as precise as a person reads them, never `61.3 s`.
 */

/** `340 ms`, `1.2 s`, `42 s`, `3 min 5 s`; `–` for a time the service did not give. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
