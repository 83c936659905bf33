/**
 * `npm start`: the product in one command. Starts the emulator with the demo state (rebuilt on each
 * run unless `--keep-state` or ENDPOINT_STUDIO_KEEP_STATE=1 keeps the previous run's), then VS Code
 * (code-server) with the packaged extension, the examples workspace (its demo specs bound to the
 * endpoints seeded for them, the staging and prod overlays of sdxl-worker included) and settings that point at
 * the emulator, and prints the URL to open.
 * The VS Code is the current one of scripts/editor/editors.json unless `--editor <version>` names another
 * (such as the oldest the extension supports); it is installed first if it is not yet. Ctrl-C stops everything.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../core/api';
import { startEmulator, DEFAULT_DEV_API_KEY } from '../emulator/index';
import { CodeServer } from './editor/codeServer';
import { bindDemo, keepStateRequested, prepareState } from './demo';
import { DEFAULT_EDITOR_NAME, EDITOR_NAMES, editorNamed, EXAMPLES_DIR, packagedExtensionPath, REPO_ROOT } from './editor/paths';

/** The editor `--editor <version>` names, else the current one. */
function chosenEditor(argv: readonly string[]): string {
  const at = argv.indexOf('--editor');
  if (at < 0) return DEFAULT_EDITOR_NAME;
  const name = argv[at + 1];
  if (!EDITOR_NAMES.includes(name)) throw new Error(`--editor needs one of ${EDITOR_NAMES.join(', ')} (got "${name}")`);
  return name;
}

/** How to run the oldest supported VS Code instead, unless it is the one running. */
function oldestHint(editorName: string): string {
  const oldest = EDITOR_NAMES[0];
  return oldest && oldest !== editorName ? `; npm start -- --editor ${oldest} for the oldest supported` : '';
}

async function main(): Promise<void> {
  const editorName = chosenEditor(process.argv.slice(2));
  // Installs that editor the first time (and the Debian packages it needs, as root); a later run only checks.
  const setup = spawnSync('bash', [join(REPO_ROOT, 'scripts', 'editor', 'setup.sh'), '--editor', editorName], { stdio: 'inherit' });
  if (setup.status !== 0) throw new Error(`the editor set-up failed (exit ${String(setup.status ?? setup.signal)})`);
  const statePath = join(tmpdir(), 'endpoint-studio-demo', 'state.json');
  const state = prepareState(statePath, keepStateRequested(process.argv.slice(2), process.env));
  const emulator = await startEmulator({ port: Number(process.env.EMULATOR_PORT ?? 0), jobsPort: 0, statePath, demo: true });
  const api = createApiClient({ apiUrl: emulator.restUrl, jobsUrl: emulator.jobsUrl, apiKey: DEFAULT_DEV_API_KEY });
  const seeded = emulator.demo?.endpoints ?? {};
  const workspace = mkdtempSync(join(tmpdir(), 'endpoint-studio-demo-workspace-'));
  cpSync(EXAMPLES_DIR, workspace, { recursive: true });
  await bindDemo(api, workspace, seeded);
  const editor = await CodeServer.start({
    editor: editorNamed(editorName),
    workspace,
    extensions: [packagedExtensionPath()],
    // The key reaches the extension through the environment, as a user's exported variable would.
    env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
    userSettings: {
      'endpointStudio.api.url': emulator.restUrl,
      'endpointStudio.api.jobsUrl': emulator.jobsUrl,
      // A first look at the extension starts on its walkthrough.
      'workbench.welcomePage.walkthroughs.openOnInstall': true,
    },
  });
  process.stdout.write(
    [
      '',
      'Endpoint Studio is running.',
      `  VS Code:   ${editor.url} (VS Code ${editor.editor.vscodeVersion}${oldestHint(editorName)})`,
      `  Emulator:  ${emulator.restUrl} (jobs ${emulator.jobsUrl}), key ${DEFAULT_DEV_API_KEY}`,
      `  Workspace: ${workspace} (a copy of examples/; sdxl-worker has staging and prod environments, prod protected)`,
      `  State:     ${statePath} (${state === 'kept' ? 'kept from the last run' : 'fresh; npm start -- --keep-state keeps it next time'})`,
      '',
      'Open the VS Code URL in a browser. Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping...\n');
    await editor.stop();
    await emulator.close();
    rmSync(workspace, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
