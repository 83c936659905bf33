/**
 * The open spec documents and their analyses, over the workspace's one owner of spec files
 * (core/workspace/specWorkspace.ts). The server shows the owner its files (an open editor's text first, then
 * the disk) and tells it what changed: an edit, an editor opened or closed, a file changed on disk. The owner
 * keeps each analysis until a file it read changes, so every LSP feature asking about the same version shares
 * one check, and an overlay edit re-checks its open base (and the other way round): `onDidChangeLinked` tells
 * the diagnostics to ask again.
 */
import { dirname } from 'node:path';
import type { Range, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ValidationContext } from '../core/endpointSpec/validate';
import type { SpecFormat } from '../core/endpointSpec/tree';
import { isPolicyFile, isSpecFile, specFormatOf } from '../core/protocol';
import type { SuppressedDiagnostic } from '../core/policy';
import { DISK_FILE_VIEW } from '../core/environments/overlays';
import { SpecWorkspace, type EnvironmentOfBase, type FileView, type SpecFileInWorkspace } from '../core/workspace/specWorkspace';
import {
  analyze,
  analyzePolicy,
  DocumentReuse,
  fileProblem,
  MAX_CHECKED_TEXT_LENGTH,
  type CheckResult,
  type PolicyAnalysis,
  type PolicyOver,
} from './languageService';
import { filePathOf } from './uris';

/** What a document's analysis read from other files: for an overlay its base, for a base its overlays. */
export interface EnvironmentLinks {
  readonly basePath?: string;
  readonly overlays: readonly EnvironmentOfBase[];
}

const NO_LINKS: EnvironmentLinks = { overlays: [] };

/** A document's analysis with the findings the team silenced, which the editor shows as hints. */
export type SpecAnalysis = CheckResult & { readonly suppressed?: readonly SuppressedDiagnostic[] };

export class SpecDocuments {
  readonly workspace: SpecWorkspace;
  private readonly linkedChangeListeners: (() => void)[] = [];
  /** The version of each open document the owner was last told of. */
  private readonly seen = new Map<string, number>();
  /** Documents that are not files (untitled editors): checked alone, reusing unchanged `---` documents. */
  private readonly unsaved = new Map<string, { version: number; result: CheckResult; reuse: DocumentReuse }>();
  /** Each open team policy's problems and parse, for its current version. */
  private readonly policies = new Map<string, { version: number; analysis: PolicyAnalysis }>();
  /** How the owner sees the files: an open editor's text first, then the disk's. */
  private readonly view: FileView;

  constructor(
    readonly documents: TextDocuments<TextDocument>,
    /** The catalog the checks run against; it changes while the server runs. */
    private readonly context: () => ValidationContext,
    private readonly logError: (what: string, error: unknown) => void,
    /** The workspace folders an overlay's base may lie in. */
    roots: () => readonly string[] = () => [],
    /** Told of each folder whose files the checks read, for a server that watches them itself. */
    private readonly readsFolder: (folder: string) => void = () => undefined,
  ) {
    this.view = {
      read: (path) => {
        this.readsFolder(dirname(path));
        return this.openDocumentAt(path)?.getText() ?? DISK_FILE_VIEW.read(path);
      },
      list: (folder) => {
        this.readsFolder(folder);
        return DISK_FILE_VIEW.list(folder);
      },
    };
    this.workspace = new SpecWorkspace(this.view, { roots: (path) => (roots().length > 0 ? roots() : [dirname(path)]), context });
    documents.onDidChangeContent((event) => {
      this.sync(event.document);
    });
    documents.onDidClose((event) => {
      const { uri } = event.document;
      this.seen.delete(uri);
      this.unsaved.delete(uri);
      this.policies.delete(uri);
      const path = filePathOf(uri);
      if (path === undefined) return;
      this.workspace.forget(path);
      // The file's text is the disk's again.
      this.announce(this.workspace.changed(path));
    });
  }

  /** Called when a change reached other open files' problems (a base's overlay, an overlay's base). */
  onDidChangeLinked(listener: () => void): void {
    this.linkedChangeListeners.push(listener);
  }

  /** The open document at `uri` when it is a spec; other documents get no answers from this server. */
  spec(uri: string): TextDocument | undefined {
    const document = this.documents.get(uri);
    return document && isSpecFile(document.uri) ? document : undefined;
  }

  /**
   * The open document at `uri` when it is the team policy (`.endpoint-studio/policy.yaml`): served for its own
   * problems, completions and hovers; its text is also what the specs under it are judged by.
   */
  policy(uri: string): TextDocument | undefined {
    const document = this.documents.get(uri);
    return document && isPolicyFile(document.uri) ? document : undefined;
  }

  /** The policy document's problems against its schema and its parse, once per version. */
  policyAnalysisOf(document: TextDocument): PolicyAnalysis {
    const kept = this.policies.get(document.uri);
    if (kept?.version === document.version) return kept.analysis;
    const analysis = analyzePolicy(document.getText());
    this.policies.set(document.uri, { version: document.version, analysis });
    return analysis;
  }

  /** The team policy a spec document is judged by, with its text as the owner reads it; none when it has none or it is broken. */
  policyOver(document: TextDocument): PolicyOver | undefined {
    const found = this.ownedFileOrNone(document)?.check.policy;
    const text = found?.policy && this.view.read(found.path);
    return found?.policy && text !== undefined ? { path: found.path, root: found.root, text, policy: found.policy } : undefined;
  }

  formatOf(document: TextDocument): SpecFormat {
    return specFormatOf(document.uri, document.languageId);
  }

  /** The analysis of the document's current version, computed at most once per version. */
  analysisOf(document: TextDocument): SpecAnalysis {
    try {
      const file = this.ownedFile(document);
      if (!file) return this.checkAlone(document);
      // The documents are read only when a feature asks for them (core/endpointSpec/documentReuse.ts).
      return {
        diagnostics: file.diagnostics,
        suppressed: file.suppressed,
        get documents() {
          return file.check.documents;
        },
      };
    } catch (error) {
      // A bug in a rule must not take the server down; the user sees it as one diagnostic.
      this.logError('validation failed', error);
      return fileProblem({
        severity: 'error',
        code: 'internal-error',
        message: 'the spec could not be checked (internal error; see the Endpoint Studio output)',
      });
    }
  }

  /**
   * The analysis with each document's data as the body it deploys: an overlay's merged into its base, so that
   * hints, hovers, costs and completions in an overlay speak of what the environment runs, and a value the base
   * sets is never shown as a default. Its tree stays the overlay's own.
   */
  deployedAnalysisOf(document: TextDocument): CheckResult {
    const analysis = this.analysisOf(document);
    const merged = this.ownedFileOrNone(document)?.check.overlay?.merged;
    if (!merged) return analysis;
    return { ...analysis, documents: analysis.documents.map((each, index) => (index === 0 ? { ...each, data: merged } : each)) };
  }

  /** What the document's analysis read: an overlay's base, a base's overlays with their merged bodies. */
  linksOf(document: TextDocument): EnvironmentLinks {
    const file = this.ownedFileOrNone(document);
    if (!file) return NO_LINKS;
    const basePath = file.check.overlay?.basePath;
    return { overlays: file.environments, ...(basePath !== undefined ? { basePath } : {}) };
  }

  /**
   * The document as the owner holds it, once told of its current version; undefined for a document that is not
   * a file, or whose text is too large to check in the editor (it is never parsed here).
   */
  private ownedFile(document: TextDocument): SpecFileInWorkspace | undefined {
    const path = this.sync(document);
    if (path === undefined || document.getText().length > MAX_CHECKED_TEXT_LENGTH) return undefined;
    return this.workspace.file(path);
  }

  /** As `ownedFile`, for the features that show nothing rather than an internal error when a check fails. */
  private ownedFileOrNone(document: TextDocument): SpecFileInWorkspace | undefined {
    try {
      return this.ownedFile(document);
    } catch {
      return undefined;
    }
  }

  /**
   * The owner's view of the file at `uri`, whether an editor has it open or not: an open document's current
   * version (the owner told of it first), else the disk's text. Undefined for a URI that names no file, and for
   * an open text too large to check in the editor.
   */
  fileAt(uri: string): { readonly version: number | null; readonly file: SpecFileInWorkspace } | undefined {
    const path = filePathOf(uri);
    if (path === undefined) return undefined;
    const open = this.openDocumentAt(path);
    if (open && open.getText().length > MAX_CHECKED_TEXT_LENGTH) return undefined;
    if (open) this.sync(open);
    return { version: open?.version ?? null, file: this.workspace.file(path) };
  }

  /** Files changed on disk: the owner drops what read them, and open files that read them are checked again. */
  changedOnDisk(changes: readonly { readonly path: string; readonly existence: boolean }[]): void {
    const dropped = changes.flatMap(({ path, existence }) =>
      existence ? this.workspace.createdOrDeleted(path) : this.workspace.changed(path),
    );
    this.announce([...dropped, ...changes.map((change) => change.path)]);
  }

  /** Drops every analysis (not the parses): each must be computed again, against a new catalog. */
  invalidateAll(): void {
    this.workspace.invalidateChecks();
    this.unsaved.clear();
  }

  /** Tells the owner of a new version of the document; the document's path, when it is a file. */
  private sync(document: TextDocument): string | undefined {
    const path = filePathOf(document.uri);
    if (path === undefined || this.seen.get(document.uri) === document.version) return path;
    this.seen.set(document.uri, document.version);
    this.announce(this.workspace.changed(path));
    return path;
  }

  /** Fires the linked-change listeners when one of `paths` is open. */
  private announce(paths: readonly string[]): void {
    if (paths.some((path) => this.openDocumentAt(path))) for (const listener of this.linkedChangeListeners) listener();
  }

  private openDocumentAt(path: string): TextDocument | undefined {
    return this.documents.all().find((document) => filePathOf(document.uri) === path);
  }

  private checkAlone(document: TextDocument): CheckResult {
    const kept = this.unsaved.get(document.uri);
    if (kept?.version === document.version) return kept.result;
    const reuse = kept?.reuse ?? new DocumentReuse();
    const result = analyze(document.getText(), this.formatOf(document), this.context(), reuse);
    this.unsaved.set(document.uri, { version: document.version, result, reuse });
    return result;
  }
}

/** The LSP range of `length` characters at `offset` in the document. */
export function rangeAt(document: TextDocument, offset: number, length: number): Range {
  return { start: document.positionAt(offset), end: document.positionAt(offset + length) };
}
