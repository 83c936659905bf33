/** The Markdown plan: one section per document, table cells that survive any value, and the refused action for namesakes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planDeployment, renderPlanMarkdown, renderPlansMarkdown, renderUnplannedMarkdown } from '../../../core/deploy';
import { Catalog } from '../../../core/endpointSpec/catalog/catalog';

const SPEC = {
  name: 'md',
  type: 'QUEUE',
  image: 'myorg/worker:1.0',
  env: { GREETING: 'a|b `c`' },
  gpu: { pools: ['ADA_24'] },
  workers: { min: 1, max: 2 },
  scaling: { type: 'QUEUE_DELAY', queueDelay: 4 },
};
const LIVE = { ...SPEC, id: 'ep1', env: { GREETING: 'old' }, workers: { min: 0, max: 2, idleTimeout: 10 } };
/** One priced type in the spec's pool, so the cost line has a price to show. */
const catalog = new Catalog({
  gpuTypes: [{ id: 'NVIDIA L4', name: 'L4', pool: 'ADA_24', memory: 24, price: { secure: 0.5, community: 0.3 } }],
  cpuFlavors: [],
  dataCenters: [],
  templates: [],
});

describe('plan as Markdown', () => {
  it('tables an update with pipes and backticks kept inside their cell, then the cost', () => {
    const plan = planDeployment(SPEC, LIVE);
    assert.equal(plan.kind, 'update');
    const md = renderPlanMarkdown(plan, { title: 'specs/md.endpoint.yaml', catalog });
    const lines = md.split('\n');
    assert.equal(lines[0], '### specs/md.endpoint.yaml: update');
    assert.ok(lines.includes('| `env.GREETING` | `"old"` | `` "a\\|b `c`" `` |'), md);
    // Every table row has exactly four unescaped pipes: three columns.
    for (const row of lines.filter((l) => l.startsWith('| '))) assert.equal(row.replace(/\\\|/g, '').split('|').length - 1, 4, row);
    assert.match(md, /\n\*\*Always-on cost:\*\* \$0\.00\/h → \$0\.50\/h \(\+\$0\.50\/h, \+\$365\.00\/month\) from workers\.min\n/);
  });

  it('names a create that deploy would refuse as refused, with the reason before the table', () => {
    const md = renderPlanMarkdown(planDeployment(SPEC, undefined), {
      title: 'a (document 1)',
      refusal: 'an endpoint with this name already exists (ep9)',
    });
    assert.match(
      md,
      /^### a \(document 1\): refused\n\n\*\*Deploy refuses this:\*\* an endpoint with this name already exists \(ep9\)\.\n\nCreates a new endpoint "md"/,
    );
    assert.match(md, /\| `workers\.idleTimeout` \| — \| `10` \(default\) \|/);
  });

  it('heads the sections with a count of each action, and shows a file it could not plan', () => {
    const unchanged = planDeployment(SPEC, { ...LIVE, env: SPEC.env, workers: SPEC.workers });
    const sections = [
      { action: unchanged.kind, markdown: renderPlanMarkdown(unchanged, { title: 'x' }) },
      {
        action: 'not planned' as const,
        markdown: renderUnplannedMarkdown('y.endpoint.yaml', 'cannot read y.endpoint.yaml: no such file (file-unreadable)'),
      },
    ];
    const md = renderPlansMarkdown(sections);
    assert.match(
      md,
      /^## Endpoint deploy plan\n\n1 unchanged, 1 not planned\.\n\n### x: unchanged\n\nendpoint `ep1` "md" matches the spec/,
    );
    assert.match(md, /### y\.endpoint\.yaml: not planned\n\ncannot read y\.endpoint\.yaml: no such file \(file-unreadable\)\n/);
    assert.match(renderPlansMarkdown([]), /No spec files\./);
  });
});
