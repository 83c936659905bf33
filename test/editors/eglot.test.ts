/**
 * Emacs 30 with the Eglot set-up of docs/editor.md, copied from the page as it is written, driven in batch by
 * drivers/eglot.el through the scenario of support.ts. Debian's Emacs has no tree-sitter grammars, so this is
 * also the check that the set-up needs none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertScenario, docsBlocks, driverEnvironment, editorCommand, prepareWorkspace, readReport, run } from './support';

test('Emacs (Eglot): the documented set-up shows diagnostics, applies a quick fix, formats, and keeps its server', async () => {
  const workspace = await prepareWorkspace();
  try {
    const [setup = ''] = docsBlocks('### Emacs (Eglot)', 'elisp');
    const config = join(workspace.home, 'endpoint-studio.el');
    writeFileSync(config, setup);
    const reportPath = join(workspace.home, 'report.json');
    const driver = join(__dirname, 'drivers', 'eglot.el');
    const env = driverEnvironment(workspace, reportPath);
    const emacs = await run(editorCommand('emacs'), ['-Q', '--batch', '-l', config, '-l', driver], {
      cwd: workspace.dir,
      env,
      timeoutMs: 90_000,
    });
    const report = readReport(reportPath, emacs.output);
    assertScenario('Emacs', report);
  } finally {
    await workspace.close();
  }
});
