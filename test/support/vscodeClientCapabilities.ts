/**
 * The client capabilities VS Code's language client declares, taken from the installed vscode-languageclient
 * itself rather than written out by hand, so a test of "what VS Code does" follows the library when it is
 * upgraded. The library needs the `vscode` module, which exists only inside the editor; every feature only
 * fills in constants here, so a stand-in that answers anything is enough to build the client and ask it.
 */
import Module from 'node:module';
import type { ClientCapabilities } from 'vscode-languageserver-protocol';

/** A value that is every function, class and namespace of the `vscode` API at once. */
function standIn(): unknown {
  const target = function () {
    /* a call answers another stand-in */
  };
  return new Proxy(target, {
    get: (_, property) => (property === 'then' ? undefined : property === 'version' ? '1.100.0' : standIn()),
    apply: () => standIn(),
    construct: () => standIn() as object,
  });
}

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

export function vscodeClientCapabilities(): ClientCapabilities {
  const loader = Module as unknown as ModuleLoader;
  const load = loader._load.bind(Module);
  loader._load = (request, parent, isMain) => (request === 'vscode' ? standIn() : load(request, parent, isMain));
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded while the stand-in is in place
    const { LanguageClient } = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');
    const client = new LanguageClient('capabilities', 'capabilities', { command: 'none' }, { documentSelector: [{ pattern: '**/*' }] });
    return (client as unknown as { computeClientCapabilities(): ClientCapabilities }).computeClientCapabilities();
  } finally {
    loader._load = load;
  }
}
