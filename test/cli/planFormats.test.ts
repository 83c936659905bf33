/**
 * `plan --format markdown|json` over a folder of specs, as a pull request's CI job runs it against
 * the emulator: one section or entry per document with its action (create, update, unchanged,
 * refused for an unbound namesake), the changed fields, the always-on cost and the notes; a file
 * that cannot be planned still gets its own entry.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runDeploy, runPlan } from '../../cli/deploy';
import { withEmulator, type Emulator } from '../core/deploy/support';
import { captureIo } from './support';

const spec = (name: string, min = 0) => `name: ${name}
type: QUEUE
image: myorg/worker:1.0
gpu:
  pools: [ADA_24]
workers: { min: ${min}, max: 2 }
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

interface PlanEntry {
  file: string;
  action: string;
  kind?: string;
  code?: string;
  refusal?: string;
  namesakes?: { id: string }[];
  cost?: { text: string; alwaysOnPerHour: { before?: { low: number }; after: { low: number } } } | null;
}

/** A repository with one spec per action: deployed-and-changed, deployed-as-is, new, and an unbound namesake. */
async function withSpecs(fn: (ctx: { emu: Emulator; root: string; namesakeId: string }) => Promise<void>): Promise<void> {
  await withEmulator({}, async (emu, api) => {
    const root = mkdtempSync(join(tmpdir(), 'es-plan-formats-'));
    try {
      mkdirSync(join(root, '.git'));
      mkdirSync(join(root, 'specs'));
      const write = (name: string, text: string) => {
        writeFileSync(join(root, 'specs', name), text);
      };
      write('update.endpoint.yaml', spec('pr-update'));
      write('unchanged.endpoint.yaml', spec('pr-unchanged'));
      for (const file of ['update', 'unchanged']) {
        const io = captureIo(emu);
        assert.equal(await runDeploy(['--yes', join(root, 'specs', `${file}.endpoint.yaml`)], io), 0, io.stderr);
      }
      write('update.endpoint.yaml', spec('pr-update', 1));
      write('create.endpoint.yaml', spec('pr-create'));
      const namesake = await api().serverless.create({
        name: 'pr-namesake',
        type: 'QUEUE',
        image: 'myorg/worker:0.9',
        gpu: { pools: ['ADA_24'] },
        scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
      });
      write('namesake.endpoint.yaml', spec('pr-namesake'));
      await fn({ emu, root, namesakeId: namesake.id });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}

describe('plan for pull requests', () => {
  it('writes a Markdown section per document with its action, changes table, cost and notes', async () => {
    await withSpecs(async ({ emu, root, namesakeId }) => {
      const io = captureIo(emu);
      assert.equal(await runPlan(['--format', 'markdown', join(root, 'specs')], io), 0, io.stderr);
      const md = io.stdout;
      assert.match(md, /^## Endpoint deploy plan\n\n1 create, 1 update, 1 unchanged, 1 refused\.\n/);
      const section = (file: string): string => {
        const start = md.indexOf(`### specs/${file}.endpoint.yaml: `);
        assert.ok(start >= 0, `${file} section in:\n${md}`);
        const end = md.indexOf('\n### ', start + 1);
        return md.slice(start, end < 0 ? undefined : end);
      };
      const update = section('update');
      assert.match(update, /^### specs\/update\.endpoint\.yaml: update\n\nUpdates endpoint `\w+` "pr-update": 1 change\.\n/);
      assert.match(update, /\| field \| live \| spec \|\n\|---\|---\|---\|\n\| `workers\.min` \| `0` \| `1` \|\n/);
      assert.match(
        update,
        /\n\*\*Always-on cost:\*\* \$0\.00\/h → \$\d+\.\d\d\/h \(\+\$\d+\.\d\d\/h, \+\$[\d,]+\.\d\d\/month\) from workers\.min\n/,
      );
      assert.match(section('unchanged'), /: unchanged\n\nendpoint `\w+` "pr-unchanged" matches the spec: nothing to deploy\.\n/);
      const create = section('create');
      assert.match(create, /: create\n\nCreates a new endpoint "pr-create" \(QUEUE on GPU\)\./);
      assert.match(create, /\| `gpu\.pools` \| — \| `\["ADA_24"\]` \|/);
      assert.match(create, /\| `gpu\.count` \| — \| `1` \(default\) \|/);
      assert.match(create, /> \*\*Note:\*\* chosen by the service: `disk`/);
      const refused = section('namesake');
      assert.match(refused, /: refused\n\n\*\*Deploy refuses this:\*\* an endpoint with this name already exists/);
      assert.match(refused, new RegExp(`> \\*\\*Note:\\*\\* an endpoint named "pr-namesake" already exists \\(${namesakeId}\\)`));
    });
  });

  it('gives JSON with the action and cost of every document, and an entry for a file it cannot plan', async () => {
    await withSpecs(async ({ emu, root, namesakeId }) => {
      const large = join(root, 'specs', 'large.endpoint.yaml');
      writeFileSync(large, spec('pr-large'));
      truncateSync(large, 11 * 1024 * 1024);
      const io = captureIo(emu);
      assert.equal(await runPlan(['--format', 'json', join(root, 'specs')], io), 2, 'an unreadable file keeps exit status 2');
      const entries = JSON.parse(io.stdout) as PlanEntry[];
      const byFile = new Map(entries.map((e) => [e.file.replace(/^.*specs\//, ''), e]));
      assert.deepEqual(
        [...byFile].map(([file, e]) => [file, e.action]),
        [
          ['create.endpoint.yaml', 'create'],
          ['large.endpoint.yaml', 'not planned'],
          ['namesake.endpoint.yaml', 'refused'],
          ['unchanged.endpoint.yaml', 'unchanged'],
          ['update.endpoint.yaml', 'update'],
        ],
      );
      const entry = (file: string): PlanEntry => {
        const found = byFile.get(file);
        assert.ok(found, file);
        return found;
      };
      assert.equal(entry('large.endpoint.yaml').code, 'file-too-large');
      const cost = entry('update.endpoint.yaml').cost;
      assert.ok(cost, 'an update of workers.min has a cost');
      assert.equal(cost.alwaysOnPerHour.before?.low, 0);
      assert.ok(cost.alwaysOnPerHour.after.low > 0);
      assert.match(cost.text, /^always-on cost: /);
      assert.equal(entry('unchanged.endpoint.yaml').cost, null);
      const namesake = entry('namesake.endpoint.yaml');
      assert.equal(namesake.kind, 'create');
      assert.deepEqual(
        namesake.namesakes?.map((n) => n.id),
        [namesakeId],
      );
      assert.match(namesake.refusal ?? '', /--adopt/);
    });
  });
});
