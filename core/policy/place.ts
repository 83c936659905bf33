/**
 * Policy findings put on the line of the value that breaks the rule, in the file that wrote it, the way the
 * engine's problems of an overlay are placed (core/endpointSpec/overlay.ts): on the overlay's line when it set
 * the value; otherwise on the overlay's `extends` line, pointing at the base, and on the base's line prefixed
 * with the environment. What the base breaks on its own it shows itself, once.
 */
import { basename } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { diagnosticAt, problemAt, type SpecDiagnostic } from '../endpointSpec/check';
import { extendsEntry, holdsPath, overlayOwns, overlayPatch, problemKey } from '../endpointSpec/overlay';
import { isRecord } from '../endpointSpec/ownData';
import type { SpecProblem } from '../endpointSpec/problem';
import { formatFieldPath, type SpecDocument } from '../endpointSpec/tree';
import { withFacts } from './facts';

/** A file's text with the documents parsed from it (offsets into the text). */
export interface PlacedText {
  readonly path: string;
  readonly text: string;
  readonly documents: readonly SpecDocument[];
}

/** Each document's problems located in the file; `problemsOf` is asked only for documents holding a mapping. */
export function placeInDocuments(file: PlacedText, problemsOf: (data: Record<string, unknown>) => SpecProblem[]): SpecDiagnostic[] {
  let lines: TextDocument | undefined;
  const placed: SpecDiagnostic[] = [];
  file.documents.forEach((document, index) => {
    if (!isRecord(document.data)) return;
    const problems = problemsOf(document.data);
    if (problems.length === 0) return;
    lines ??= TextDocument.create(file.path, 'spec', 0, file.text);
    // A problem at the very end of a document stops there rather than running into the next one.
    const limit = file.documents[index + 1]?.span.offset ?? file.text.length;
    for (const problem of problems) placed.push(withFacts(problemAt(lines, document, limit, problem, index), problem, true));
  });
  return placed;
}

export interface OverlayPlacement {
  readonly overlay: SpecDiagnostic[];
  /** On the base's lines, each saying the environment; `setInOverlay` when the overlay wrote the value. */
  readonly base: (SpecDiagnostic & { readonly setInOverlay: boolean })[];
}

/**
 * The merged body's findings (`problems`) placed in the overlay and its base; `alone` are the base's own
 * findings, which it shows itself.
 */
export function placeForOverlay(
  overlay: PlacedText & { readonly environment: string },
  base: PlacedText,
  problems: readonly SpecProblem[],
  alone: readonly SpecProblem[],
): OverlayPlacement {
  const placed: OverlayPlacement = { overlay: [], base: [] };
  const overlayDocument = overlay.documents.at(0);
  const baseDocument = base.documents.at(0);
  const entry = extendsEntry(overlayDocument);
  if (problems.length === 0 || !entry || !overlayDocument || !baseDocument) return placed;
  const patch = overlayPatch(overlayDocument.data);
  const overlayLines = TextDocument.create(overlay.path, 'spec', 0, overlay.text);
  const baseLines = TextDocument.create(base.path, 'spec', 0, base.text);
  const baseName = basename(base.path);
  const aloneKeys = new Set(alone.map(problemKey));
  for (const problem of problems) {
    const setInOverlay = overlayOwns(patch, problem.path);
    const inOverlay = setInOverlay
      ? withFacts(problemAt(overlayLines, overlayDocument, overlay.text.length, problem), problem, true)
      : undefined;
    if (inOverlay) placed.overlay.push(inOverlay);
    if (aloneKeys.has(problemKey(problem)) || (setInOverlay && !holdsPath(baseDocument.data, problem.path))) continue;
    const inBase = withFacts(problemAt(baseLines, baseDocument, base.text.length, problem), problem, false);
    const extendsLine = withFacts(
      diagnosticAt(
        overlayLines,
        entry.valueSpan,
        overlay.text.length,
        { ...problem, message: `${problem.message} (${formatFieldPath(problem.path)} in ${baseName})` },
        0,
      ),
      problem,
      false,
    );
    if (!inOverlay)
      placed.overlay.push({
        ...extendsLine,
        origin: { path: base.path, range: inBase.range, message: `${formatFieldPath(problem.path)}, as the base sets it` },
      });
    placed.base.push({
      ...inBase,
      message: `in ${overlay.environment}: ${problem.message}${setInOverlay ? ` (set in ${basename(overlay.path)})` : ''}`,
      setInOverlay,
      origin: {
        path: overlay.path,
        range: (inOverlay ?? extendsLine).range,
        message: setInOverlay ? `set here for ${overlay.environment}` : `the ${overlay.environment} overlay`,
      },
    });
  }
  return placed;
}
