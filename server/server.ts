/**
 * LSP wiring for the spec language service. Handlers are thin: they find the document's
 * analysis (computed once per version) and translate to and from LSP types.
 */
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DocumentDiagnosticReportKind,
  InsertTextFormat,
  MarkupKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DIAGNOSTIC_SOURCE } from '../core/endpointSpec/problem';
import { formatJsonPath } from '../core/endpointSpec/tree';
import type { SpecFormat } from '../core/endpointSpec/tree';
import { analyze, complete, fixes, hover, FIXABLE_CODES, IncrementalChecker, type CheckResult } from './languageService';
import type { CatalogService } from './catalog/catalogService';
import { createCatalogService } from './catalog/setup';

export const SPEC_FILE_PATTERN = /\.endpoint\.(ya?ml|json)$/i;

export interface ServerOptions {
  /** Milliseconds to wait after the last change before validating (push mode). */
  debounceMs: number;
  /** A pinned catalog snapshot to check against (see core/endpointSpec/catalog/load.ts). */
  catalogFile?: string;
  /** Where the catalog cache lives; default ~/.cache/endpoint-studio. */
  cacheDir?: string;
}

/** Server-to-client notification: where the catalog comes from and how old it is. */
export const CATALOG_STATUS_NOTIFICATION = 'endpointStudio/catalogStatus';
/** Client-to-server request: refresh the catalog now; answers the new status. */
export const REFRESH_CATALOG_REQUEST = 'endpointStudio/refreshCatalog';

const severities = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
} as const;

export function startServer(connection: Connection, defaults: ServerOptions): void {
  const documents = new TextDocuments(TextDocument);
  const analyses = new Map<string, { version: number; result: CheckResult }>();
  // Per document: what the last check parsed, so an edit to one `---` document re-checks only that one.
  const checkers = new Map<string, IncrementalChecker>();
  const timers = new Map<string, NodeJS.Timeout>();
  let options = { ...defaults };
  let pullDiagnostics = false;
  let catalogs: CatalogService | undefined;

  const formatOf = (document: TextDocument): SpecFormat =>
    /\.json$/i.test(document.uri) || document.languageId === 'json' ? 'json' : 'yaml';
  // The suffix never needs percent-decoding, and decoding a malformed URI would throw.
  const isSpec = (document: TextDocument): boolean => SPEC_FILE_PATTERN.test(document.uri);

  /** The analysis of the document's current version, computed at most once per version. */
  function analysisOf(document: TextDocument): CheckResult {
    const cached = analyses.get(document.uri);
    if (cached?.version === document.version) return cached.result;
    let result: CheckResult;
    try {
      let checker = checkers.get(document.uri);
      if (!checker) checkers.set(document.uri, (checker = new IncrementalChecker()));
      result = analyze(
        document.getText(),
        formatOf(document),
        { catalog: catalogs?.catalog, liveProperties: catalogs?.liveProperties },
        checker,
      );
    } catch (error) {
      // A bug in a rule must not take the server down; the user sees it as one diagnostic.
      checkers.delete(document.uri);
      connection.console.error(`validation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      result = {
        documents: [],
        diagnostics: [
          {
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            offset: 0,
            length: 0,
            severity: 'error',
            code: 'internal-error',
            message: 'the spec could not be checked (internal error; see the Endpoint Studio output)',
            path: [],
            documentIndex: 0,
          },
        ],
      };
    }
    analyses.set(document.uri, { version: document.version, result });
    return result;
  }

  function toLspDiagnostics(result: CheckResult): Diagnostic[] {
    return result.diagnostics.map((d) => ({
      range: d.range,
      severity: severities[d.severity],
      code: d.code,
      source: DIAGNOSTIC_SOURCE,
      message: d.message,
      data: {
        path: d.path,
        jsonPath: formatJsonPath(d.path),
        documentIndex: d.documentIndex,
        ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
        ...(d.related ? { related: d.related } : {}),
      },
    }));
  }

  function schedulePush(document: TextDocument): void {
    if (pullDiagnostics || !isSpec(document)) return;
    clearTimeout(timers.get(document.uri));
    const version = document.version;
    const run = (): void => {
      timers.delete(document.uri);
      const current = documents.get(document.uri);
      // A newer edit has its own timer; publishing this one would show stale problems.
      if (!current || current.version !== version) return;
      void connection.sendDiagnostics({ uri: current.uri, version, diagnostics: toLspDiagnostics(analysisOf(current)) });
    };
    if (options.debounceMs <= 0) run();
    else timers.set(document.uri, setTimeout(run, options.debounceMs));
  }

  connection.onInitialize((params): InitializeResult => {
    pullDiagnostics = params.capabilities.textDocument?.diagnostic !== undefined;
    const init = params.initializationOptions as Partial<ServerOptions> | undefined;
    if (typeof init?.debounceMs === 'number' && init.debounceMs >= 0) options = { ...options, debounceMs: init.debounceMs };
    if (typeof init?.catalogFile === 'string') options = { ...options, catalogFile: init.catalogFile };
    if (typeof init?.cacheDir === 'string') options = { ...options, cacheDir: init.cacheDir };
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: [':', ' ', '-', '"'], resolveProvider: false },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        ...(pullDiagnostics ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}),
      },
      serverInfo: { name: 'endpoint-studio', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    catalogs = createCatalogService({
      catalogFile: options.catalogFile,
      cacheDir: options.cacheDir,
      log: (message) => {
        connection.console.log(message);
      },
    });
    catalogs.onDidChange((catalogChanged) => {
      void connection.sendNotification(CATALOG_STATUS_NOTIFICATION, catalogs!.status);
      if (!catalogChanged) return;
      // Checks depend on the catalog: every open spec is checked again against the new one.
      analyses.clear();
      if (pullDiagnostics) void connection.languages.diagnostics.refresh();
      else for (const document of documents.all()) schedulePush(document);
    });
    void catalogs.start().then(() => connection.sendNotification(CATALOG_STATUS_NOTIFICATION, catalogs!.status));
  });
  connection.onRequest(REFRESH_CATALOG_REQUEST, async () => (catalogs ? catalogs.refresh() : { state: 'none' }));
  connection.onShutdown(() => catalogs?.dispose());

  documents.onDidChangeContent((event) => {
    schedulePush(event.document);
  });
  documents.onDidClose((event) => {
    clearTimeout(timers.get(event.document.uri));
    timers.delete(event.document.uri);
    analyses.delete(event.document.uri);
    checkers.delete(event.document.uri);
    if (!pullDiagnostics) void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
  });

  connection.languages.diagnostics.on((params) => {
    const document = documents.get(params.textDocument.uri);
    const items = document && isSpec(document) ? toLspDiagnostics(analysisOf(document)) : [];
    return { kind: DocumentDiagnosticReportKind.Full, items };
  });

  connection.onCompletion((params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !isSpec(document)) return [];
    const text = document.getText();
    const offset = document.offsetAt(params.position);
    return complete(text, formatOf(document), offset, analysisOf(document), catalogs?.catalog).map((c) => ({
      label: c.label,
      kind:
        c.kind === 'property'
          ? CompletionItemKind.Property
          : c.kind === 'snippet'
            ? CompletionItemKind.Snippet
            : CompletionItemKind.EnumMember,
      detail: c.detail,
      documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
      insertTextFormat: c.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      sortText: c.sortText,
      filterText: c.label,
      textEdit: {
        range: { start: document.positionAt(c.replaceOffset), end: document.positionAt(c.replaceOffset + c.replaceLength) },
        newText: c.insertText,
      },
    }));
  });

  connection.onHover((params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !isSpec(document)) return null;
    const result = hover(document.offsetAt(params.position), analysisOf(document), catalogs?.catalog);
    if (!result) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: result.markdown },
      range: { start: document.positionAt(result.span.offset), end: document.positionAt(result.span.offset + result.span.length) },
    };
  });

  connection.onCodeAction((params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !isSpec(document)) return [];
    const analysis = analysisOf(document);
    const text = document.getText();
    const actions: CodeAction[] = [];
    for (const diagnostic of params.context.diagnostics) {
      const data = diagnostic.data as
        { path?: (string | number)[]; suggestion?: string; related?: string[]; documentIndex?: number } | undefined;
      if (
        diagnostic.source !== DIAGNOSTIC_SOURCE ||
        typeof diagnostic.code !== 'string' ||
        !FIXABLE_CODES.includes(diagnostic.code) ||
        !Array.isArray(data?.path)
      )
        continue;
      const request = { code: diagnostic.code, path: data.path, suggestion: data.suggestion, related: data.related };
      for (const fix of fixes(text, formatOf(document), analysis, request, data.documentIndex ?? 0, catalogs?.catalog)) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: fix.preferred,
          edit: {
            changes: {
              [document.uri]: fix.edits.map((e) => ({
                range: { start: document.positionAt(e.offset), end: document.positionAt(e.offset + e.length) },
                newText: e.newText,
              })),
            },
          },
        });
      }
    }
    return actions;
  });

  documents.listen(connection);
  connection.listen();
}
