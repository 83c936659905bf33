import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { typicalCase } from '../bench/fixtures';
import { BenchLspClient } from '../bench/lsp';
import { isolatedEnv } from '../bench/measure';
async function main() {
  const c = typicalCase();
  const client = await BenchLspClient.start({ args: [process.argv[2], '--stdio'], env: isolatedEnv(mkdtempSync(join(tmpdir(), 'tb-'))), initializationOptions: {} });
  const uri = 'file:///bench/x.endpoint.yaml';
  await client.open(uri, c.text);
  await client.diagnosticsAfter(uri, 0);
  for (let i = 0; i < 10; i++) { const r = await client.editAndWait(uri, c.range, c.replacements[i % 2]); console.log(i, JSON.stringify(r.diagnostics).length, r.diagnostics.length); }
  const n = (client as unknown as { notifications: { method: string }[] }).notifications;
  console.log('notifications', n.length, [...new Set(n.map((x) => x.method))]);
  console.log('published', client.publishedCount);
  await client.stop();
}
void main();
