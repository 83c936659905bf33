/**
 * The spec's problems as LSP diagnostics, delivered the way the client wants them. VS Code pulls (LSP 3.17)
 * after every change, with no delay, and cancels the pull in flight when the next change comes; so a pull
 * first lets waiting messages arrive and answers nothing for a request that was cancelled or a text that has
 * moved on, and a burst of keystrokes costs one check, not one per key. A client that does not pull gets
 * the problems pushed after a pause in typing (`debounceMs`), never for a version that is no longer current.
 */
import { pathToFileURL } from 'node:url';
import {
  DiagnosticSeverity,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SpecDiagnostic } from '../../core/endpointSpec/check';
import { DIAGNOSTIC_SOURCE } from '../../core/endpointSpec/problem';
import { formatJsonPath, type JsonPath } from '../../core/endpointSpec/tree';
import { policyFactsOf, type PolicyFacts } from '../../core/policy';
import { isPolicyFile, isSpecFile } from '../../core/protocol';
import type { ServerSession } from '../session';
import type { SpecAnalysis, SpecDocuments } from '../specDocuments';

/** What each diagnostic carries in `data`, so a later code action request can find what to fix. */
export interface SpecDiagnosticData {
  readonly path: JsonPath;
  readonly jsonPath: string;
  readonly documentIndex: number;
  readonly suggestion?: string;
  readonly related?: readonly string[];
  /** A team policy finding's rule, limit and what its quick fixes need (core/policy/facts.ts). */
  readonly policy?: PolicyFacts;
  /** The finding is silenced (a hint): nothing more to allow or ignore. */
  readonly suppressed?: true;
}

const severities = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
} as const;

/** A finding the team silenced (an ignore comment, an exception of the policy) is a hint that says why. */
function toLspDiagnostics(result: SpecAnalysis): Diagnostic[] {
  const silenced = (result.suppressed ?? []).map((d) => {
    const [shown] = toLsp([d]);
    const data = { ...(shown.data as SpecDiagnosticData), suppressed: true };
    return { ...shown, data, severity: DiagnosticSeverity.Hint, message: `${d.message} (suppressed: ${d.suppression.reason})` };
  });
  return [...toLsp(result.diagnostics), ...silenced];
}

function toLsp(diagnostics: readonly SpecDiagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => {
    const facts = policyFactsOf(d);
    const data: SpecDiagnosticData = {
      path: d.path,
      jsonPath: formatJsonPath(d.path),
      documentIndex: d.documentIndex,
      ...(d.suggestion !== undefined ? { suggestion: d.suggestion } : {}),
      ...(d.related ? { related: d.related } : {}),
      ...(facts ? { policy: facts } : {}),
    };
    const related = d.origin && [
      { location: { uri: pathToFileURL(d.origin.path).href, range: d.origin.range }, message: d.origin.message },
    ];
    return {
      range: d.range,
      severity: severities[d.severity],
      code: d.code,
      source: DIAGNOSTIC_SOURCE,
      message: d.message,
      data,
      ...(related ? { relatedInformation: related } : {}),
    };
  });
}

export class SpecDiagnostics {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly connection: Connection,
    private readonly specs: SpecDocuments,
    private readonly session: ServerSession,
  ) {
    specs.documents.onDidChangeContent((event) => {
      this.schedulePush(event.document);
    });
    specs.documents.onDidClose((event) => {
      this.closed(event.document.uri);
    });
    connection.languages.diagnostics.on((params, token) => this.pulled(params, token));
  }

  private async pulled(params: DocumentDiagnosticParams, token: CancellationToken): Promise<DocumentDiagnosticReport> {
    const version = this.served(params.textDocument.uri)?.version;
    // A cancellation or a newer change already on its way is read before the check, not after it.
    await new Promise((resolve) => setImmediate(resolve));
    const document = this.served(params.textDocument.uri);
    // The client asks again for the newer text (vscode-languageclient reschedules a cancelled pull).
    if (token.isCancellationRequested || document?.version !== version)
      throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    const items = document ? this.diagnosticsOf(document) : [];
    return { kind: DocumentDiagnosticReportKind.Full, items };
  }

  /** An open spec, or the team policy, whose problems this server gives. */
  private served(uri: string): TextDocument | undefined {
    return this.specs.spec(uri) ?? this.specs.policy(uri);
  }

  /** A spec's problems, or the team policy's against its schema (each on its line in the file). */
  private diagnosticsOf(document: TextDocument): Diagnostic[] {
    return isPolicyFile(document.uri)
      ? toLsp(this.specs.policyAnalysisOf(document).problems)
      : toLspDiagnostics(this.specs.analysisOf(document));
  }

  /** Every open spec is checked again: a pulling client is asked to pull, otherwise each is pushed anew. */
  recheckAll(): void {
    if (this.session.pullDiagnostics)
      void this.session.requests.ask('workspace/diagnostic/refresh', () => this.connection.languages.diagnostics.refresh());
    else for (const document of this.specs.documents.all()) this.schedulePush(document);
  }

  private schedulePush(document: TextDocument): void {
    if (this.session.pullDiagnostics || !(isSpecFile(document.uri) || isPolicyFile(document.uri))) return;
    clearTimeout(this.timers.get(document.uri));
    const { uri, version } = document;
    const run = (): void => {
      this.timers.delete(uri);
      const current = this.specs.documents.get(uri);
      // A newer edit has its own timer; publishing this one would show stale problems.
      if (!current || current.version !== version) return;
      void this.connection.sendDiagnostics({ uri, version, diagnostics: this.diagnosticsOf(current) });
    };
    const { debounceMs } = this.session.options;
    if (debounceMs <= 0) run();
    else this.timers.set(uri, setTimeout(run, debounceMs));
  }

  private closed(uri: string): void {
    clearTimeout(this.timers.get(uri));
    this.timers.delete(uri);
    if (!this.session.pullDiagnostics) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }
}
