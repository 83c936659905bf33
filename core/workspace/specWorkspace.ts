/**
 * The one owner of a workspace's spec files: every front-end asks it for a file's problems, the body it deploys,
 * its environment and its links, instead of reading and parsing files itself. It sees files only through the
 * `FileView` it is given (the editor's open documents, then the disk; the disk alone for the CLI), never `fs`.
 *
 * It keeps, until told that something changed: each file's text and parse, each folder's listing, which base has
 * which overlays, and each file's check with the files it read. So a keystroke re-checks the edited file and,
 * for a base, merges its overlays' kept parses into it: no folder is listed and no sibling is read again. An edit
 * or a change on disk (`changed`, `createdOrDeleted`) drops exactly the checks that read that file.
 *
 * Each check has the team's policy applied (core/policy): the `.endpoint-studio/policy.yaml` over the file is
 * read through the same view, and is one of the files the check read, so editing it drops the checks it judged.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { byPosition, checkSpecText, type CheckResult, type SpecDiagnostic } from '../endpointSpec/check';
import { DocumentReuse } from '../endpointSpec/documentReuse';
import { environmentOfFile, overlayPatch } from '../endpointSpec/overlay';
import { parseSpecText } from '../endpointSpec/parse';
import type { SpecDocument, SpecFormat } from '../endpointSpec/tree';
import type { SpecProblem } from '../endpointSpec/problem';
import { validateSpecData, type ValidationContext } from '../endpointSpec/validate';
import { checkOverlayFile, overlayTarget, type CheckedOverlay } from '../environments/overlays';
import {
  applyPolicy,
  findPolicy,
  isGoverned,
  parsePolicy,
  type ParsedPolicy,
  type PolicyContext,
  type PolicyLookup,
  type PolicyView,
  type SuppressedDiagnostic,
} from '../policy';
import { isSpecFile, specFormatOf } from '../protocol/specFiles';

/** An overlay's check with the team's policy applied on both files' lines. */
interface GovernedOverlay extends CheckedOverlay {
  /** Findings on the base's lines that an ignore comment or an exception of the policy silences, with the reason. */
  readonly suppressedBase: readonly SuppressedDiagnostic<SpecDiagnostic & { readonly setInOverlay: boolean }>[];
}

/** Bodies whose problems are kept (a base and its overlays' merged bodies, over a few edits); more start again. */
const KEPT_VALIDATIONS = 256;

/** How a front-end shows the owner its files. */
export type FileView = PolicyView;

export interface SpecWorkspaceOptions {
  /** The folders an overlay's base may lie in, for the overlay at `path` (the workspace folders in an editor). */
  readonly roots: (path: string) => readonly string[];
  /** What the checks run against (the catalog); the owner is told with `invalidateChecks` when it changes. */
  readonly context: () => ValidationContext;
  /**
   * What the team policy's cost limit is priced with, when it differs from the checks' catalog: prices read for a
   * deploy whose checks run without a catalog. The checks' catalog when absent.
   */
  readonly policyContext?: () => PolicyContext;
}

/** One environment of a base: its overlay, the overlay's own values and the body it deploys. */
export interface EnvironmentOfBase {
  readonly path: string;
  readonly environment: string;
  /** The overlay's own values (without `extends`). */
  readonly patch: Record<string, unknown>;
  /** The body the environment deploys; undefined while its overlay is broken. */
  readonly merged?: Record<string, unknown>;
  /** The overlay's check: its problems on the base's lines among them (`base`). */
  readonly check: GovernedOverlay;
}

/** A spec file checked where it lives. */
export interface SpecFileCheck extends CheckResult {
  readonly path: string;
  readonly format: SpecFormat;
  /** Set when the file is an overlay (it has `extends`): its check merged into its base. */
  readonly overlay?: GovernedOverlay;
  /** Findings an ignore comment or an exception of the policy silences, with the reason: listed, never counted. */
  readonly suppressed: readonly SuppressedDiagnostic[];
  /** The team policy over the file (`.endpoint-studio/policy.yaml`), broken or not; none when there is none. */
  readonly policy?: PolicyLookup['file'];
}

/** A file as the editor shows it: its own check, and for a base its environments' problems on its lines too. */
export interface SpecFileInWorkspace {
  readonly check: SpecFileCheck;
  /** Every problem to show in the file: its own, and for a base those its overlays' merged bodies have on its lines. */
  readonly diagnostics: SpecDiagnostic[];
  /** The silenced ones among them, with the reason. */
  readonly suppressed: readonly SuppressedDiagnostic[];
  /** A base's environments; none for an overlay or a spec without overlays. */
  readonly environments: readonly EnvironmentOfBase[];
}

/** Something kept with the files it was made from: it is dropped when any of them changes. */
interface Kept<T> {
  readonly value: T;
  readonly reads: readonly string[];
}

export class SpecWorkspace {
  private readonly texts = new Map<string, { text: string | undefined; parsed?: { readonly documents: SpecDocument[] } }>();
  private readonly listings = new Map<string, readonly string[]>();
  private readonly checks = new Map<string, Kept<SpecFileCheck>>();
  /** Each base's overlays, kept until its folder's listing changes or a file in it names another base. */
  private readonly overlayLists = new Map<string, readonly string[]>();
  /** The base each spec file read as a possible overlay names (absolute), undefined for none. */
  private readonly targets = new Map<string, string | undefined>();
  private readonly files = new Map<string, Kept<SpecFileInWorkspace>>();
  private readonly reuse = new Map<string, DocumentReuse>();
  private readonly validations = new Map<string, SpecProblem[]>();
  /** The policy over each folder's specs, with the candidate files looked for, until one of them changes. */
  private readonly policies = new Map<string, PolicyLookup>();
  private readonly parsedPolicies = new Map<string, ParsedPolicy>();

  constructor(
    private readonly view: FileView,
    private readonly options: SpecWorkspaceOptions,
  ) {}

  /** The file checked where it lives: an overlay merged into its base, any other spec on its own. */
  check(path: string): SpecFileCheck {
    const kept = this.checks.get(path);
    if (kept) return kept.value;
    const text = this.text(path) ?? '';
    const format = specFormatOf(path);
    const unjudged = this.isOverlayText(path, text, format) ? this.checkOverlay(path, text, format) : this.checkAlone(path, text, format);
    const checked = this.withPolicy(unjudged, text);
    this.checks.set(path, checked);
    return checked.value;
  }

  /** The file as the editor shows it: a base with what each of its environments breaks on its lines. */
  file(path: string): SpecFileInWorkspace {
    const kept = this.files.get(path);
    if (kept) return kept.value;
    const check = this.check(path);
    const environments = check.overlay ? [] : this.environmentsOf(path);
    const fromOverlays = environments.flatMap((environment) => environment.check.base);
    const suppressedInOverlays = environments.flatMap((environment) => environment.check.suppressedBase);
    const value = {
      check,
      environments,
      diagnostics: fromOverlays.length > 0 ? byPosition([...check.diagnostics, ...fromOverlays]) : check.diagnostics,
      suppressed: suppressedInOverlays.length > 0 ? [...check.suppressed, ...suppressedInOverlays] : check.suppressed,
    };
    const reads = [...(this.checks.get(path)?.reads ?? [path]), ...environments.flatMap((environment) => environment.path)];
    this.files.set(path, { value, reads });
    return value;
  }

  /** The overlays of a base, each checked merged into it, in name order; none for an overlay or a lone spec. */
  environmentsOf(basePath: string): EnvironmentOfBase[] {
    return this.overlayPathsOf(basePath).flatMap((path) => {
      const { overlay } = this.check(path);
      const environment = environmentOfFile(path);
      if (!overlay || environment === undefined || overlay.basePath !== basePath) return [];
      const patch = overlayPatch(overlay.documents.at(0)?.data);
      return [{ path, environment, patch, check: overlay, ...(overlay.merged ? { merged: overlay.merged } : {}) }];
    });
  }

  /**
   * The overlays beside a base whose `extends` names it, with the environment each deploys to, in name order;
   * found from the folder's listing and each candidate's `extends`, without checking them.
   */
  overlaysOf(basePath: string): { path: string; environment: string }[] {
    return this.overlayPathsOf(basePath).flatMap((path) => {
      const environment = environmentOfFile(path);
      return environment === undefined ? [] : [{ path, environment }];
    });
  }

  /** The base an overlay extends, once it names one that can be read. */
  baseOf(overlayPath: string): string | undefined {
    return this.check(overlayPath).overlay?.basePath;
  }

  /**
   * The text of `path` changed (an edit, an editor opened or closed on it, a write on disk). Returns the other
   * files whose checks read it and were dropped.
   */
  changed(path: string): string[] {
    this.texts.delete(path);
    for (const [folder, { reads }] of this.policies) if (reads.includes(path)) this.policies.delete(folder);
    const dropped = new Set<string>();
    for (const kept of [this.checks, this.files])
      for (const [other, { reads }] of kept)
        if (other === path || reads.includes(path)) {
          kept.delete(other);
          dropped.add(other);
        }
    // A file that may be an overlay can start or stop naming a base: both bases' overlay lists go.
    if (this.targets.has(path)) {
      const before = this.targets.get(path);
      this.targets.delete(path);
      const after = this.targetOf(path);
      if (before !== after) for (const base of [before, after]) if (base !== undefined) this.dropOverlayList(base, dropped);
    }
    dropped.delete(path);
    return [...dropped];
  }

  /** A file appeared or went: its folder is listed again, and whatever read it or that listing is dropped. */
  createdOrDeleted(path: string): string[] {
    const folder = dirname(path);
    this.listings.delete(folder);
    const dropped = new Set(this.changed(path));
    for (const base of [...this.overlayLists.keys()]) if (dirname(base) === folder) this.dropOverlayList(base, dropped);
    dropped.delete(path);
    return [...dropped];
  }

  private dropOverlayList(base: string, dropped: Set<string>): void {
    if (!this.overlayLists.delete(base)) return;
    this.files.delete(base);
    dropped.add(base);
  }

  /** Every check is made again on its next question (the catalog changed); texts, parses and listings are kept. */
  invalidateChecks(): void {
    this.checks.clear();
    this.files.clear();
    this.validations.clear();
  }

  /**
   * A body's problems, kept by its JSON: each edit of a base checks its overlays' merged bodies and the base alone
   * again, and most keystrokes (a comment, a half-typed key) leave those bodies as they were.
   */
  private validated(data: unknown): SpecProblem[] {
    return keptIn(this.validations, JSON.stringify(data), () => validateSpecData(data, 'create', this.options.context()), KEPT_VALIDATIONS);
  }

  /** Forgets a file the front-end no longer asks about (its editor closed, its text now the disk's). */
  forget(path: string): void {
    this.reuse.delete(path);
  }

  private text(path: string): string | undefined {
    return keptIn(this.texts, path, () => ({ text: this.view.read(path) })).text;
  }

  /** The parse of `text` as `path` holds it now, made at most once per text. */
  private parse(path: string, text: string, format: SpecFormat): SpecDocument[] {
    const kept = this.texts.get(path);
    if (kept?.text === text && kept.parsed) return kept.parsed.documents;
    const documents = parseSpecText(text, format);
    if (kept?.text === text) kept.parsed = { documents };
    return documents;
  }

  private isOverlayText(path: string, text: string, format: SpecFormat): boolean {
    return overlayTarget(text, format, () => this.parse(path, text, format)) !== undefined;
  }

  private checkAlone(path: string, text: string, format: SpecFormat): Kept<SpecFileCheck> {
    const reuse = keptIn(this.reuse, path, () => new DocumentReuse());
    const result = checkSpecText(text, format, 'create', this.options.context(), reuse);
    // The overlays merged into this base take its parse from here rather than parsing it again.
    const kept = this.texts.get(path);
    // Read only when asked: a check places its documents when they are first read (core/endpointSpec/documentReuse.ts).
    if (kept?.text === text) kept.parsed = result;
    return {
      value: {
        path,
        format,
        diagnostics: result.diagnostics,
        suppressed: [],
        get documents() {
          return result.documents;
        },
      },
      reads: [path],
    };
  }

  private checkOverlay(path: string, text: string, format: SpecFormat): Kept<SpecFileCheck> {
    const read = (other: string): string | undefined => this.text(other);
    const parse = (other: string, otherText: string, otherFormat: SpecFormat): SpecDocument[] => this.parse(other, otherText, otherFormat);
    const overlay = checkOverlayFile(
      { path, text, format },
      { read, roots: this.options.roots(path), context: this.options.context(), parse, validate: (data) => this.validated(data) },
    );
    const diagnostics = byPosition(overlay.overlay);
    // The base it named is read even when it turned out broken or missing: its appearing must drop this check.
    const named = overlayTarget(text, format, () => this.parse(path, text, format));
    const reads = [path, ...(typeof named === 'string' ? [resolve(dirname(path), named)] : [])];
    const governed = { ...overlay, suppressedBase: [] };
    return { value: { path, format, documents: overlay.documents, diagnostics, overlay: governed, suppressed: [] }, reads };
  }

  /**
   * The check with the policy over the file applied, and the policy's candidate files among those it read. A file
   * with no policy and no ignore comment is kept as it was checked.
   */
  private withPolicy(kept: Kept<SpecFileCheck>, text: string): Kept<SpecFileCheck> {
    const { value } = kept;
    const lookup = this.policyFor(value.path);
    const reads = [...kept.reads, ...lookup.reads];
    const { overlay } = value;
    const base = overlay?.basePath === undefined ? undefined : { path: overlay.basePath, text: this.text(overlay.basePath) ?? '' };
    const policy = lookup.file;
    if (!isGoverned({ text, ...(policy ? { policy } : {}), ...(base ? { baseText: base.text } : {}) })) return { value, reads };
    const judged = applyPolicy({
      path: value.path,
      text,
      format: value.format,
      documents: () => value.documents,
      diagnostics: value.diagnostics,
      context: this.options.policyContext?.() ?? this.options.context(),
      read: (other) => this.text(other),
      ...(policy ? { policy } : {}),
      ...(overlay
        ? {
            overlay: {
              environment: overlay.environment ?? '',
              ...(overlay.merged ? { merged: overlay.merged } : {}),
              documents: overlay.documents,
              ...(base ? { base: { ...base, documents: this.parse(base.path, base.text, value.format) } } : {}),
              baseDiagnostics: overlay.base,
            },
          }
        : {}),
    });
    const governedOverlay = overlay && {
      ...overlay,
      overlay: judged.diagnostics,
      base: judged.base?.diagnostics ?? overlay.base,
      suppressedBase: judged.base?.suppressed ?? [],
    };
    return {
      value: {
        path: value.path,
        format: value.format,
        diagnostics: judged.diagnostics,
        suppressed: judged.suppressed,
        get documents() {
          return value.documents;
        },
        ...(governedOverlay ? { overlay: governedOverlay } : {}),
        ...(policy ? { policy } : {}),
      },
      reads,
    };
  }

  /** The policy over the specs of the file's folder, looked for once through the view until a candidate changes. */
  private policyFor(path: string): PolicyLookup {
    const folder = dirname(path);
    return keptIn(this.policies, folder, () => {
      const view = { read: (candidate: string) => this.text(candidate), list: (dir: string) => this.listing(dir) };
      return findPolicy(folder, this.options.roots(path), view, (text) => keptIn(this.parsedPolicies, text, () => parsePolicy(text), 16));
    });
  }

  /** The overlays beside a base whose `extends` names it: the folder listed once, each candidate read once. */
  private overlayPathsOf(basePath: string): readonly string[] {
    const kept = this.overlayLists.get(basePath);
    if (kept) return kept;
    const overlays = this.listing(dirname(basePath))
      .filter((name) => isSpecFile(name) && environmentOfFile(name) !== undefined)
      .map((name) => join(dirname(basePath), name))
      .filter((path) => path !== basePath && this.targetOf(path) === basePath)
      .sort((a, b) => basename(a).localeCompare(basename(b)));
    this.overlayLists.set(basePath, overlays);
    return overlays;
  }

  /** The base a spec file's `extends` names, as an absolute path; read once per text. */
  private targetOf(path: string): string | undefined {
    if (this.targets.has(path)) return this.targets.get(path);
    const text = this.text(path);
    const format = specFormatOf(path);
    const target = text === undefined ? undefined : overlayTarget(text, format, () => this.parse(path, text, format));
    const resolved = typeof target === 'string' ? resolve(dirname(path), target) : undefined;
    this.targets.set(path, resolved);
    return resolved;
  }

  private listing(folder: string): readonly string[] {
    return keptIn(this.listings, folder, () => this.view.list(folder));
  }
}

/** The value kept under `key`, made on the first ask; a map already holding `limit` values starts again. */
function keptIn<K, V>(map: Map<K, V>, key: K, make: () => V, limit = Number.POSITIVE_INFINITY): V {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= limit) map.clear();
    value = make();
    map.set(key, value);
  }
  return value;
}
