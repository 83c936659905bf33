/**
 * The benchmark's table: each figure a row beside its target, notes under it, printed once the run ends.
 * Side-by-side cells list the servers in the order floor / ours / yaml-language-server.
 */
import { loadavg } from 'node:os';

export interface Row {
  section: string;
  metric: string;
  value: string;
  target: string;
  /** true pass, false miss, null no target. */
  pass: boolean | null;
}

export const rows: Row[] = [];
export const notes: string[] = [];
export const results: Record<string, unknown> = {};

export const ms = (v: number): string => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : 'n/a');
export const mb = (bytes: number | undefined): string => (bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
export const times = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
/** Floor / ours / YLS, the order of every side-by-side row. */
export const side = (values: readonly string[]): string => values.join(' / ');
export function row(section: string, metric: string, value: string, target = '', pass: boolean | null = null): void {
  rows.push({ section, metric, value, target, pass });
}

export function print(machine: Record<string, string | number>): void {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `\nEndpoint Studio benchmark: ${String(machine.cpu)}, ${String(machine.cores)} cores, ${String(machine.memory)}, ${String(machine.os)}, Node ${String(machine.node)}; load average now ${load}\n`,
  );
  const header = ['area', 'measure', 'result', 'target', ''];
  const table = [header, ...rows.map((r) => [r.section, r.metric, r.value, r.target, r.pass === null ? '' : r.pass ? 'pass' : 'MISS'])];
  const widths = header.map((_, i) => Math.max(...table.map((t) => t[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const t of table.slice(1)) console.log(line(t));
  if (notes.length > 0) console.log(`\nNotes:\n${notes.map((n) => `- ${n}`).join('\n')}`);
}
