/**
 * Which server-to-client requests a client's capabilities declare, read from the LSP 3.17 specification's
 * "client capability" of each request: the tests' own reading, so that a server that sends an undeclared
 * request is caught by something other than its own table.
 */
import type { ClientCapabilities, Registration } from 'vscode-languageserver-protocol';

type Reader = (capabilities: ClientCapabilities) => unknown;

const REQUESTS: Readonly<Partial<Record<string, Reader>>> = {
  'workspace/configuration': (c) => c.workspace?.configuration,
  'workspace/workspaceFolders': (c) => c.workspace?.workspaceFolders,
  'workspace/applyEdit': (c) => c.workspace?.applyEdit,
  'workspace/diagnostic/refresh': (c) => c.workspace?.diagnostics?.refreshSupport,
  'workspace/inlayHint/refresh': (c) => c.workspace?.inlayHint?.refreshSupport,
  'workspace/inlineValue/refresh': (c) => c.workspace?.inlineValue?.refreshSupport,
  'workspace/codeLens/refresh': (c) => c.workspace?.codeLens?.refreshSupport,
  'workspace/semanticTokens/refresh': (c) => c.workspace?.semanticTokens?.refreshSupport,
  'window/workDoneProgress/create': (c) => c.window?.workDoneProgress,
  'window/showDocument': (c) => c.window?.showDocument?.support,
  // Part of the base protocol: every client takes it.
  'window/showMessageRequest': () => true,
};

/** `textDocument/hover` → the `dynamicRegistration` of `textDocument.hover`. */
function registersDynamically(capabilities: ClientCapabilities, method: string): boolean {
  const [area = '', name = ''] = method.split('/');
  const groups = capabilities as Partial<Record<string, Partial<Record<string, { dynamicRegistration?: unknown }>>>>;
  return groups[area]?.[name]?.dynamicRegistration === true;
}

export function declaresRequest(capabilities: ClientCapabilities, method: string, params: unknown): boolean {
  if (method === 'client/registerCapability' || method === 'client/unregisterCapability') {
    const { registrations = [], unregisterations = [] } = params as { registrations?: Registration[]; unregisterations?: Registration[] };
    return [...registrations, ...unregisterations].every((registration) => registersDynamically(capabilities, registration.method));
  }
  return REQUESTS[method]?.(capabilities) === true;
}
