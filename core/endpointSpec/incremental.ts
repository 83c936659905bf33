/**
 * Checks a document again after an edit while doing only the work the edit calls for. A YAML file of many
 * `---` documents is cut at its document markers; a document whose text did not change keeps its parse
 * and its problems from the last check and is only moved to its new place. In a one-document file, an
 * edit inside one value reads that value again rather than the file (scalarEdit.ts), and the validation
 * runs again only the rules and schema parts that read a changed field (validationMemo.ts).
 * The result is always the one `checkSpecText` gives for the whole text (the tests hold it to that).
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkParsed, checkSpecText, documentDiagnostics, sortDiagnostics, type CheckResult, type SpecDiagnostic } from './check';
import { shiftDocument, splitYamlDocuments, type DocumentChunk } from './chunks';
import { parseSpecText, parseYamlBeyondFastPath, parseYamlStream } from './parse';
import { parsePlainYaml } from './plainYaml';
import { documentAfterScalarEdit } from './scalarEdit';
import { ValidationMemo } from './validationMemo';
import type { SpecMode } from './schemas';
import type { SpecDocument, SpecFormat } from './tree';
import type { ValidationContext } from './validate';

/** A chunk checked on its own: offsets and lines count from the chunk's start. */
interface ChunkResult {
  readonly document: SpecDocument;
  readonly diagnostics: SpecDiagnostic[];
  /** The same result moved to where the chunk sat last time, kept so an unmoved chunk costs nothing. */
  placed?: { offset: number; line: number; index: number; document: SpecDocument; diagnostics: SpecDiagnostic[] };
}

export class IncrementalChecker {
  private chunks = new Map<string, ChunkResult>();
  /** The last validation of a one-document file: an edit to one field checks that field again, not the spec. */
  private readonly memo = new ValidationMemo();
  /** The last one-document YAML text the fast path read, and its document: an edit inside one value patches it. */
  private plain?: { document: SpecDocument; text: string };
  private last?: { text: string; format: SpecFormat; mode: SpecMode; context: ValidationContext; result: CheckResult };

  /** `lines`: the editor's document of `text`, if there is one (its line offsets are kept as it is edited). */
  check(text: string, format: SpecFormat, mode: SpecMode = 'create', context: ValidationContext = {}, lines?: TextDocument): CheckResult {
    const last = this.last;
    const sameSetting =
      last !== undefined &&
      last.format === format &&
      last.mode === mode &&
      last.context.catalog === context.catalog &&
      last.context.liveProperties === context.liveProperties;
    if (sameSetting && last.text === text) return last.result;
    // Problems depend on the catalog and the mode: none of the old ones can be kept when those change.
    if (!sameSetting) this.chunks.clear();
    // An edit inside one value of a one-document file leaves it one document: no need to look for markers.
    const patched = format === 'yaml' && this.plain ? documentAfterScalarEdit(this.plain.document, this.plain.text, text) : undefined;
    const chunks = format === 'yaml' && !patched ? splitYamlDocuments(text) : undefined;
    const result =
      chunks && chunks.length > 1
        ? (this.checkChunks(chunks, mode, context) ?? checkSpecText(text, format, mode, context))
        : this.checkWhole(text, format, mode, context, patched, lines);
    this.last = { text, format, mode, context, result };
    return result;
  }

  private checkWhole(
    text: string,
    format: SpecFormat,
    mode: SpecMode,
    context: ValidationContext,
    patched?: SpecDocument,
    lines?: TextDocument,
  ): CheckResult {
    this.chunks.clear();
    if (format !== 'yaml') return checkParsed(text, parseSpecText(text, format), mode, context, this.memo, lines);
    const plain = patched ?? parsePlainYaml(text);
    this.plain = plain && { document: plain, text };
    return checkParsed(text, plain ? [plain] : parseYamlBeyondFastPath(text), mode, context, this.memo, lines);
  }

  private checkChunks(chunks: readonly DocumentChunk[], mode: SpecMode, context: ValidationContext): CheckResult | undefined {
    this.plain = undefined;
    const next = new Map<string, ChunkResult>();
    const documents: SpecDocument[] = [];
    const diagnostics: SpecDiagnostic[] = [];
    for (const [index, chunk] of chunks.entries()) {
      let result = next.get(chunk.text) ?? this.chunks.get(chunk.text);
      if (!result) {
        const parsed = parseYamlStream(chunk.text);
        // Only an empty first chunk gives no document; leave such text to the whole-file check.
        if (parsed.length !== 1) return undefined;
        const lines = TextDocument.create('spec', 'yaml', 0, chunk.text);
        result = { document: parsed[0], diagnostics: documentDiagnostics(parsed[0], 0, true, chunk.text.length, lines, mode, context) };
      }
      next.set(chunk.text, result);
      const placed = place(result, chunk, index);
      documents.push(placed.document);
      diagnostics.push(...placed.diagnostics);
    }
    this.chunks = next;
    return { documents, diagnostics: sortDiagnostics(diagnostics) };
  }
}

function place(result: ChunkResult, chunk: DocumentChunk, index: number): { document: SpecDocument; diagnostics: SpecDiagnostic[] } {
  const placed = result.placed;
  if (placed && placed.offset === chunk.offset && placed.line === chunk.line && placed.index === index) return placed;
  const document = shiftDocument(result.document, chunk.offset);
  const diagnostics = result.diagnostics.map((d) => ({
    ...d,
    offset: d.offset + chunk.offset,
    range: {
      start: { line: d.range.start.line + chunk.line, character: d.range.start.character },
      end: { line: d.range.end.line + chunk.line, character: d.range.end.character },
    },
    documentIndex: index,
  }));
  result.placed = { offset: chunk.offset, line: chunk.line, index, document, diagnostics };
  return result.placed;
}
