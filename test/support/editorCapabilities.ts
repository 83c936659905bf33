/**
 * The client capabilities other editors declare, for tests that speak to the server as those editors do.
 *
 * NEOVIM_0_10 is what Neovim 0.10's `vim.lsp.protocol.make_client_capabilities()` returns
 * (runtime/lua/vim/lsp/protocol.lua of 0.10), written out with its value sets expanded as its
 * `get_value_set` builds them (every value of the constant table, sorted) and on Linux, where
 * `didChangeWatchedFiles.dynamicRegistration` is false. It takes snippets and pulls diagnostics.
 *
 * PLAIN_CLIENT is a client without snippets or pull diagnostics, as Emacs' Eglot is without yasnippet or a
 * Helix or Eglot release before pull diagnostics: it answers `workspace/configuration`, takes no snippets,
 * has diagnostics pushed, and cannot be asked to refresh inlay hints.
 */
import type { ClientCapabilities, CompletionItemKind, SymbolKind } from 'vscode-languageserver-protocol';

const range = <T extends number>(from: number, to: number): T[] => Array.from({ length: to - from + 1 }, (_, i) => (from + i) as T);
const MARKDOWN_THEN_PLAIN = ['markdown', 'plaintext'] as const;
const CODE_ACTION_KINDS = [
  '',
  'quickfix',
  'refactor',
  'refactor.extract',
  'refactor.inline',
  'refactor.rewrite',
  'source',
  'source.organizeImports',
];

export const NEOVIM_0_10: ClientCapabilities = {
  general: { positionEncodings: ['utf-8', 'utf-16', 'utf-32'] },
  textDocument: {
    diagnostic: { dynamicRegistration: false },
    inlayHint: { dynamicRegistration: true, resolveSupport: { properties: ['textEdits', 'tooltip', 'location', 'command'] } },
    semanticTokens: {
      dynamicRegistration: false,
      tokenTypes: [
        'namespace',
        'type',
        'class',
        'enum',
        'interface',
        'struct',
        'typeParameter',
        'parameter',
        'variable',
        'property',
        'enumMember',
        'event',
        'function',
        'method',
        'macro',
        'keyword',
        'modifier',
        'comment',
        'string',
        'number',
        'regexp',
        'operator',
        'decorator',
      ],
      tokenModifiers: [
        'declaration',
        'definition',
        'readonly',
        'static',
        'deprecated',
        'abstract',
        'async',
        'modification',
        'documentation',
        'defaultLibrary',
      ],
      formats: ['relative'],
      requests: { range: false, full: { delta: true } },
      overlappingTokenSupport: true,
      multilineTokenSupport: false,
      serverCancelSupport: false,
      augmentsSyntaxTokens: true,
    },
    synchronization: { dynamicRegistration: false, willSave: true, willSaveWaitUntil: true, didSave: true },
    codeAction: {
      dynamicRegistration: true,
      codeActionLiteralSupport: { codeActionKind: { valueSet: CODE_ACTION_KINDS } },
      isPreferredSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
    },
    codeLens: { dynamicRegistration: false, resolveSupport: { properties: ['command'] } },
    formatting: { dynamicRegistration: true },
    rangeFormatting: { dynamicRegistration: true, rangesSupport: true },
    completion: {
      dynamicRegistration: false,
      completionItem: {
        snippetSupport: true,
        commitCharactersSupport: false,
        preselectSupport: false,
        deprecatedSupport: true,
        documentationFormat: [...MARKDOWN_THEN_PLAIN],
        resolveSupport: { properties: ['additionalTextEdits'] },
        tagSupport: { valueSet: [1] },
      },
      completionItemKind: { valueSet: range<CompletionItemKind>(1, 25) },
      completionList: { itemDefaults: ['editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
      contextSupport: false,
    },
    declaration: { linkSupport: true },
    definition: { linkSupport: true, dynamicRegistration: true },
    implementation: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    hover: { dynamicRegistration: true, contentFormat: [...MARKDOWN_THEN_PLAIN] },
    signatureHelp: {
      dynamicRegistration: false,
      signatureInformation: {
        activeParameterSupport: true,
        documentationFormat: [...MARKDOWN_THEN_PLAIN],
        parameterInformation: { labelOffsetSupport: true },
      },
    },
    references: { dynamicRegistration: false },
    documentHighlight: { dynamicRegistration: false },
    documentSymbol: {
      dynamicRegistration: false,
      symbolKind: { valueSet: range<SymbolKind>(1, 26) },
      hierarchicalDocumentSymbolSupport: true,
    },
    rename: { dynamicRegistration: true, prepareSupport: true },
    publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] }, dataSupport: true },
    callHierarchy: { dynamicRegistration: false },
  },
  workspace: {
    symbol: { dynamicRegistration: false, symbolKind: { valueSet: range<SymbolKind>(1, 26) } },
    configuration: true,
    didChangeConfiguration: { dynamicRegistration: false },
    workspaceFolders: true,
    applyEdit: true,
    workspaceEdit: { resourceOperations: ['rename', 'create', 'delete'] },
    semanticTokens: { refreshSupport: true },
    didChangeWatchedFiles: { dynamicRegistration: false, relativePatternSupport: true },
    inlayHint: { refreshSupport: true },
  },
  window: {
    workDoneProgress: true,
    showMessage: { messageActionItem: { additionalPropertiesSupport: true } },
    showDocument: { support: true },
  },
};

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
