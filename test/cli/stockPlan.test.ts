/**
 * `plan` and `deploy` warn when nothing the spec chooses has serverless stock, against the emulator, whose seeded
 * catalog gives the H200 (pool HOPPER_141) no stock anywhere: the plan says so and names pools with stock, with
 * their price, in text, Markdown and `--format json`; the deploy still goes ahead.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runDeploy, runPlan } from '../../cli/deploy';
import { withEmulator, type Emulator } from '../core/deploy/support';
import { captureIo } from './support';

const spec = (pools: string) => `name: stockless
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: ${pools}
workers: { min: 0, max: 2 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

/** The seeded pools with stock, the closest VRAM below 141 GB first and the cheapest among equals. */
const ALTERNATIVES =
  'pools with stock: AMPERE_80 (80 GB, $1.64–$1.74/h per worker), ADA_80_PRO (80 GB, $2.39–$2.99/h per worker), AMPERE_48 (48 GB, $0.40–$0.76/h per worker)';

interface StockEntry {
  action: string;
  notes: string[];
  stock?: {
    compute: string;
    chosen: string[];
    workersMax: number;
    message: string;
    alternatives: {
      id: string;
      memoryGb: number;
      perWorkerHour?: { low: number; high: number };
      atMaxHour?: { low: number; high: number };
    }[];
  };
}

async function withSpec(pools: string, fn: (emu: Emulator, file: string, write: (pools: string) => void) => Promise<void>): Promise<void> {
  await withEmulator({}, async (emu) => {
    const root = mkdtempSync(join(tmpdir(), 'es-stock-plan-'));
    try {
      mkdirSync(join(root, '.git'));
      const file = join(root, 'stockless.endpoint.yaml');
      const write = (p: string) => {
        writeFileSync(file, spec(p));
      };
      write(pools);
      await fn(emu, file, write);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

describe('plan and deploy warn of a pool without stock', () => {
  it('says so in the text plan with the alternatives, and in --format json with their prices', async () => {
    await withSpec('[HOPPER_141]', async (emu, file) => {
      const text = captureIo(emu);
      assert.equal(await runPlan([file], text), 0, text.stderr);
      assert.ok(
        text.stdout.includes(
          `  warning: none of the GPUs chosen in HOPPER_141 has serverless stock, so workers would wait THROTTLED; ${ALTERNATIVES} (the deploy still goes ahead: stock changes by the minute)\n`,
        ),
        text.stdout,
      );

      const json = captureIo(emu);
      assert.equal(await runPlan(['--format', 'json', file], json), 0, json.stderr);
      const [entry] = JSON.parse(json.stdout) as StockEntry[];
      assert.equal(entry.action, 'create');
      assert.ok(entry.stock, json.stdout);
      assert.deepEqual([entry.stock.compute, entry.stock.chosen, entry.stock.workersMax], ['gpu', ['HOPPER_141'], 2]);
      assert.deepEqual(
        entry.stock.alternatives.map((a) => [a.id, a.memoryGb, a.perWorkerHour]),
        [
          ['AMPERE_80', 80, { low: 1.64, high: 1.74 }],
          ['ADA_80_PRO', 80, { low: 2.39, high: 2.99 }],
          ['AMPERE_48', 48, { low: 0.4, high: 0.76 }],
        ],
      );
      assert.deepEqual(entry.stock.alternatives[0].atMaxHour, { low: 3.28, high: 3.48 });
      assert.ok(entry.stock.message.endsWith(ALTERNATIVES), entry.stock.message);
      assert.ok(!entry.notes.some((n) => n.includes('stock')), 'the warning is not a note: it moves by the minute');

      const markdown = captureIo(emu);
      assert.equal(await runPlan(['--format', 'markdown', file], markdown), 0, markdown.stderr);
      assert.match(
        markdown.stdout,
        /\n> \*\*Warning:\*\* none of the GPUs chosen in HOPPER\\_141 has serverless stock.*AMPERE\\_80 \(80 GB, \$1\.64–\$1\.74\/h per worker\)/,
      );
    });
  });

  it('does not refuse the deploy, and warns an update that moves onto the pool', async () => {
    await withSpec('[AMPERE_48]', async (emu, file, write) => {
      const first = captureIo(emu);
      assert.equal(await runDeploy(['--yes', file], first), 0, first.stderr);
      assert.doesNotMatch(first.stdout, /warning:/, 'a pool with stock says nothing');

      write('[HOPPER_141]');
      const update = captureIo(emu);
      assert.equal(await runDeploy(['--yes', file], update), 0, update.stderr);
      assert.match(update.stdout, /~ gpu\.pools: \["AMPERE_48"\] → \["HOPPER_141"\]/);
      assert.match(
        update.stdout,
        /warning: none of the GPUs chosen in HOPPER_141 has serverless stock.*pools with stock: .*AMPERE_48 \(48 GB/,
      );

      const plan = captureIo(emu);
      assert.equal(await runPlan([file], plan), 0, plan.stderr);
      assert.match(plan.stdout, /matches the spec: nothing to deploy/);
      assert.doesNotMatch(plan.stdout, /warning:/, 'nothing deploys, so nothing waits for stock');
    });
  });

  it('says nothing when a chosen pool has stock', async () => {
    await withSpec('[HOPPER_141, AMPERE_80]', async (emu, file) => {
      const json = captureIo(emu);
      assert.equal(await runPlan(['--format', 'json', file], json), 0, json.stderr);
      const [entry] = JSON.parse(json.stdout) as StockEntry[];
      assert.equal(entry.stock, undefined);
    });
  });
});
