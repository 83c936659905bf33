/**
 * The extension: starts the spec language server, signs in, and contributes the commands and views.
 * Everything the editor shows about a spec comes from the server, the same engine as the CLI.
 *
 * Activation starts the server first and loads the rest (features.ts) once the open specs' problems are on
 * screen: opening a spec is what usually activates the extension, and that spec's problems are what the user is
 * waiting for. The server's process is forked before anything else (firstServer.ts) and told the profile once
 * activation has read it. The build puts the rest in a bundle of its own (dist/client-features.js), so the
 * editor reads and compiles only this part before the server starts; nothing here that the rest uses carries
 * state or identity (the session and its API client are built there), so the two bundles never hold two copies
 * of one object's class.
 */
// First, so its time stamp is taken before the rest of the bundle is evaluated.
import { LOAD_STARTED } from './loadStart';
// Second: it forks the language server.
import { FIRST_SERVER } from './firstServer';
import { setTimeout as delay } from 'node:timers/promises';
import * as vscode from 'vscode';
import { ProfileStore } from './auth/profiles';
import { LanguageServerHost } from './languageClient';
import { openWalkthroughOnFirstActivation, registerWalkthrough } from './walkthrough';

/**
 * How long the rest waits after the first problems of the open specs reached the editor. The editor draws them
 * only once it has highlighted the spec, and for the session's first YAML file that means fetching and
 * compiling its grammar: 100–250 ms more on a two-core machine. Loading the rest (about 90 ms of CPU, more with
 * the requests its providers then draw) in that time would take the CPU from the editor and show the problems
 * later. When no spec is open (activated from a view or a command) nothing waits.
 */
const EDITOR_DRAWS_PROBLEMS_MS = 400;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Endpoint Studio', { log: true });
  const manifest = context.extension.packageJSON as { version?: unknown };
  log.info(
    `Endpoint Studio ${String(manifest.version)} activating; language server: ${context.asAbsolutePath('dist/server.js')}; workspace ${vscode.workspace.isTrusted ? 'trusted' : 'untrusted (nothing is sent to the service)'}`,
  );
  const profiles = new ProfileStore(context);
  const host = new LanguageServerHost(context, log);
  context.subscriptions.push(
    log,
    host,
    // Here rather than with the features: the quick fixes the server offers from its start carry its command.
    registerWalkthrough(context, log),
    vscode.commands.registerCommand('endpointStudio.server.restart', async () => {
      log.info('restarting the language server');
      await host.restart();
    }),
  );
  // The session (features.ts) resolves the same profile again; the server is restarted only if it differs.
  const profile = vscode.workspace.isTrusted ? await profiles.resolveActive() : undefined;
  const serverStarted = await host.start(profile, FIRST_SERVER).then(
    () => true,
    (error: unknown) => {
      // The features (sign-in, the views, deploy) work without it, and the restart command tries again.
      log.error(`the language server did not start: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
  );
  const serverRunning = performance.now() - LOAD_STARTED;
  // Loading the features keeps the extension host busy for a while: not before the open specs' problems are shown.
  const waitedForProblems = serverStarted && (await host.firstDiagnostics());
  if (waitedForProblems) await delay(EDITOR_DRAWS_PROBLEMS_MS);
  const { registerFeatures } = await import('./features.js');
  context.subscriptions.push(...(await registerFeatures(context, profiles, host, log)));
  // What a user waits for, as far as the extension can see it: from its bundle's first line, not from activate().
  log.info(
    `activated in ${(performance.now() - LOAD_STARTED).toFixed(1)} ms, language server ${serverStarted ? 'running' : 'failed'} after ${serverRunning.toFixed(1)} ms (counted from the first line of dist/client.js; the editor reading and compiling that file comes before)${waitedForProblems ? `; the rest loaded ${String(EDITOR_DRAWS_PROBLEMS_MS)} ms after the open specs' first problems` : ''}`,
  );
  context.subscriptions.push(openWalkthroughOnFirstActivation(context, log));
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
