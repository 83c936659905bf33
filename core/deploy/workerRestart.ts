/**
 * Which configuration changes start new workers. A change to any of these reaches the endpoint as a
 * rolling release (workers on the old version are replaced); the others (name, scaling, worker
 * counts, timeout, FlashBoot) reach running workers in place. Plan warnings read this list, and so can anything
 * that simulates a release, so the two never disagree.
 */

/** Top-level spec fields whose change restarts every worker. */
export const WORKER_RESTART_FIELDS: readonly string[] = [
  'image',
  'args',
  'disk',
  'ports',
  'env',
  'registry',
  'gpu',
  'cpu',
  'dataCenterIds',
  'networkVolumes',
];

/** Whether a change at this spec path (`gpu.count`, `env.DEBUG`, `entrypoint`) restarts workers; the command counts however it is spelled. */
export function restartsWorkers(specPath: string): boolean {
  const top = /^[^.[]*/.exec(specPath)?.[0] ?? specPath;
  return WORKER_RESTART_FIELDS.includes(top === 'entrypoint' || top === 'cmd' ? 'args' : top);
}
