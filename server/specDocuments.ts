/**
 * The open spec documents and their analyses. Every LSP feature asks the same document the same
 * questions (diagnostics, completion, hover and fixes all start from the parse and the problems),
 * so the analysis is computed at most once per document version and shared.
 */
import type { Range, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ValidationContext } from '../core/endpointSpec/validate';
import type { SpecFormat } from '../core/endpointSpec/tree';
import { isSpecFile, specFormatOf } from '../core/protocol';
import { analyze, DocumentReuse, type CheckResult } from './languageService';

export class SpecDocuments {
  private readonly analyses = new Map<string, { version: number; result: CheckResult }>();
  // Per document: what the last check found, so an edit to one `---` document re-checks only that one.
  private readonly reuse = new Map<string, DocumentReuse>();

  constructor(
    readonly documents: TextDocuments<TextDocument>,
    /** The catalog the checks run against; it changes while the server runs. */
    private readonly context: () => ValidationContext,
    private readonly logError: (message: string) => void,
  ) {
    documents.onDidClose((event) => {
      this.forget(event.document.uri);
    });
  }

  /** The open document at `uri` when it is a spec; other documents get no answers from this server. */
  spec(uri: string): TextDocument | undefined {
    const document = this.documents.get(uri);
    return document && isSpecFile(document.uri) ? document : undefined;
  }

  formatOf(document: TextDocument): SpecFormat {
    return specFormatOf(document.uri, document.languageId);
  }

  /** The analysis of the document's current version, computed at most once per version. */
  analysisOf(document: TextDocument): CheckResult {
    const cached = this.analyses.get(document.uri);
    if (cached?.version === document.version) return cached.result;
    const result = this.check(document);
    this.analyses.set(document.uri, { version: document.version, result });
    return result;
  }

  /** Drops every analysis (not the parses): each must be computed again, against a new catalog. */
  invalidateAll(): void {
    this.analyses.clear();
  }

  private forget(uri: string): void {
    this.analyses.delete(uri);
    this.reuse.delete(uri);
  }

  private check(document: TextDocument): CheckResult {
    try {
      let reuse = this.reuse.get(document.uri);
      if (!reuse) this.reuse.set(document.uri, (reuse = new DocumentReuse()));
      return analyze(document.getText(), this.formatOf(document), this.context(), reuse);
    } catch (error) {
      // A bug in a rule must not take the server down; the user sees it as one diagnostic.
      this.reuse.delete(document.uri);
      this.logError(`validation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return internalErrorResult();
    }
  }
}

function internalErrorResult(): CheckResult {
  return {
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

/** The LSP range of `length` characters at `offset` in the document. */
export function rangeAt(document: TextDocument, offset: number, length: number): Range {
  return { start: document.positionAt(offset), end: document.positionAt(offset + length) };
}
