// side-by-side typing CPU: node --import tsx .tbench-tmp/typing.ts ROUNDS name=server.js ...  ('floor' = floor server)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { typicalCase } from '../bench/fixtures';
import { BenchLspClient } from '../bench/lsp';
import { isolatedEnv } from '../bench/measure';
import { buildFloorServer, startFloorServer, typingCpu } from '../bench/typing';

const [rounds, ...specs] = process.argv.slice(2);
const c = typicalCase();
const floor = buildFloorServer();
const prof = process.env.PROF;
async function main() {
  const res: Record<string, number[]> = {};
  for (let r = 0; r < Number(rounds); r++) {
    for (const spec of specs) {
      const [name, rest] = spec.split('=');
      const [path, ...flags] = (rest ?? '').split(',');
      const extra = prof ? ['--cpu-prof', '--cpu-prof-dir', join(prof, name)] : [];
      const client = name === 'floor' ? await startFloorServer(floor, extra)
        : await BenchLspClient.start({ args: [...extra, ...flags, path, '--stdio'], env: isolatedEnv(mkdtempSync(join(tmpdir(), 'tb-'))), initializationOptions: {} });
      try {
        const t = await typingCpu(client, `file:///bench/typing-x.endpoint.yaml`, c, Number(process.env.EDITS ?? 300), 90000);
        (res[name] ??= []).push(t.cpuMsPerEdit);
        console.log(`round ${r} ${name} ${t.cpuMsPerEdit.toFixed(2)} ms/edit p50 ${t.p50.toFixed(1)}`);
      } finally { await client.stop(); }
    }
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const [k, v] of Object.entries(res)) console.log(k, 'median', med(v).toFixed(2), 'mean', (v.reduce((a, b) => a + b, 0) / v.length).toFixed(2), 'ratio-to-floor', res.floor ? (med(v) / med(res.floor)).toFixed(2) : '');
}
void main();
