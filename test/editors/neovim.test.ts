/**
 * Neovim 0.10 with the `vim.lsp.start` set-up of docs/editor.md, copied from the page as it is written, driven
 * headless by drivers/neovim.lua through the scenario of support.ts.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertScenario, docsBlocks, driverEnvironment, editorCommand, prepareWorkspace, readReport, run } from './support';

test('Neovim: the documented set-up shows diagnostics, applies a quick fix, formats, and keeps its server', async () => {
  const workspace = await prepareWorkspace();
  try {
    const [initLua = ''] = docsBlocks('### Neovim (0.10+)', 'lua');
    const init = join(workspace.home, 'init.lua');
    writeFileSync(init, initLua);
    const reportPath = join(workspace.home, 'report.json');
    const driver = join(__dirname, 'drivers', 'neovim.lua');
    const env = driverEnvironment(workspace, reportPath);
    const nvim = await run(editorCommand('nvim'), ['--headless', '-u', init, '-S', driver], { cwd: workspace.dir, env, timeoutMs: 90_000 });
    const report = readReport(reportPath, nvim.output);
    assertScenario('Neovim', report);
    // Neovim logs a request from the server that it never declared (and refuses it) as a warning.
    assert.doesNotMatch(report.log, /no handler found for/, 'the server sent Neovim a request it did not declare');
  } finally {
    await workspace.close();
  }
});
