/**
 * The open spec documents and their analyses. Every LSP feature asks the same document the same
 * questions (diagnostics, completion, hover and fixes all start from the parse and the problems),
 * so the analysis is computed at most once per document version and shared. An overlay's analysis also
 * depends on its base, and a base's on its overlays (specEnvironments.ts): an edit to one drops the
 * analyses of the open files linked to it, and `onDidChangeLinked` tells the diagnostics to ask again.
 */
import type { Range, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ValidationContext } from '../core/endpointSpec/validate';
import type { SpecFormat } from '../core/endpointSpec/tree';
import { isSpecFile, specFormatOf } from '../core/protocol';
import { analyze, DocumentReuse, MAX_CHECKED_TEXT_LENGTH, type CheckResult } from './languageService';
import { checkWithEnvironments, linksTo, type EnvironmentLinks } from './specEnvironments';

export class SpecDocuments {
  private readonly analyses = new Map<string, { version: number; result: CheckResult; links: EnvironmentLinks }>();
  /** What each open document's last analysis read from other files; kept when the analysis is dropped. */
  private readonly links = new Map<string, EnvironmentLinks>();
  private readonly linkedChangeListeners: (() => void)[] = [];
  // Per document: what the last check found, so an edit to one `---` document re-checks only that one.
  private readonly reuse = new Map<string, DocumentReuse>();

  constructor(
    readonly documents: TextDocuments<TextDocument>,
    /** The catalog the checks run against; it changes while the server runs. */
    private readonly context: () => ValidationContext,
    private readonly logError: (message: string) => void,
    /** The workspace folders an overlay's base may lie in. */
    private readonly roots: () => readonly string[] = () => [],
  ) {
    documents.onDidClose((event) => {
      this.forget(event.document.uri);
    });
    documents.onDidChangeContent((event) => {
      this.dropLinkedTo(event.document.uri);
    });
  }

  /** Called when an edit changed the problems of another open file (a base's overlay, an overlay's base). */
  onDidChangeLinked(listener: () => void): void {
    this.linkedChangeListeners.push(listener);
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
    return this.analyzed(document).result;
  }

  /** The files the document's analysis read: an overlay's base, a base's overlays with their merged bodies. */
  linksOf(document: TextDocument): EnvironmentLinks {
    return this.analyzed(document).links;
  }

  private analyzed(document: TextDocument): { result: CheckResult; links: EnvironmentLinks } {
    const cached = this.analyses.get(document.uri);
    if (cached?.version === document.version) return cached;
    const analysis = { version: document.version, ...this.check(document) };
    this.analyses.set(document.uri, analysis);
    this.links.set(document.uri, analysis.links);
    return analysis;
  }

  /** The analyses that read `uri` are stale; the client is told so even when one was already dropped. */
  private dropLinkedTo(uri: string): void {
    let linked = false;
    for (const [other, links] of this.links) {
      if (other === uri || !linksTo(links, uri)) continue;
      this.analyses.delete(other);
      linked = true;
    }
    if (linked) for (const listener of this.linkedChangeListeners) listener();
  }

  /** Drops every analysis (not the parses): each must be computed again, against a new catalog. */
  invalidateAll(): void {
    this.analyses.clear();
  }

  private forget(uri: string): void {
    this.analyses.delete(uri);
    this.links.delete(uri);
    this.reuse.delete(uri);
  }

  private check(document: TextDocument): { result: CheckResult; links: EnvironmentLinks } {
    try {
      let reuse = this.reuse.get(document.uri);
      if (!reuse) this.reuse.set(document.uri, (reuse = new DocumentReuse()));
      const [text, format, context] = [document.getText(), this.formatOf(document), this.context()];
      const checkAlone = () => analyze(text, format, context, reuse);
      if (text.length > MAX_CHECKED_TEXT_LENGTH) return { result: checkAlone(), links: { overlays: [] } };
      const openText = (uri: string) => this.documents.get(uri)?.getText();
      return checkWithEnvironments({ uri: document.uri, text, format }, openText, this.roots(), context, checkAlone);
    } catch (error) {
      // A bug in a rule must not take the server down; the user sees it as one diagnostic.
      this.reuse.delete(document.uri);
      this.logError(`validation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return { result: internalErrorResult(), links: { overlays: [] } };
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
