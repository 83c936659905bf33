/**
 * The client capabilities other editors declare, for tests that speak to the server as those editors do.
 *
 * The recorded ones (test/fixtures/clients/, see its README) are what Neovim 0.10.4, Helix 25.01 and Emacs Eglot
 * 1.17.30 sent in their own `initialize`. PLAIN_CLIENT is the least a client may declare and still work: no
 * snippets, diagnostics pushed, settings through `workspace/configuration`, no refresh requests.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import { REPO_ROOT } from './lspClient';

export interface RecordedClient {
  /** Where the capabilities came from. */
  readonly client: string;
  readonly clientInfo: { name: string; version?: string };
  readonly capabilities: ClientCapabilities;
}

export type RecordedClientName = 'neovim-0.10.4' | 'helix-25.01' | 'emacs-eglot-1.17.30';

export function recordedClient(name: RecordedClientName): RecordedClient {
  return JSON.parse(readFileSync(resolve(REPO_ROOT, 'test/fixtures/clients', `${name}.json`), 'utf8')) as RecordedClient;
}

export const NEOVIM_0_10 = recordedClient('neovim-0.10.4').capabilities;

export const PLAIN_CLIENT: ClientCapabilities = {
  workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    completion: { dynamicRegistration: false, completionItem: { snippetSupport: false } },
    hover: { contentFormat: ['plaintext', 'markdown'] },
    publishDiagnostics: { versionSupport: true },
    inlayHint: { dynamicRegistration: false },
  },
};
