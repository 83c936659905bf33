/**
 * Inlay hints: what a spec leaves unsaid, shown where it would be written. A field left out gets the
 * default the service applies (`idleTimeout 10 s`), read from the schema through contract.ts, at the
 * end of its object, where the field would be added; `workers.min` and `workers.max` get the cost per
 * hour they imply, from catalog prices (core/billing/cost.ts, the cost hover's model). Pure: the
 * parsed documents and the catalog in, offsets and labels out.
 *
 * Hints that fall at one offset are given as one hint. Editors differ in how they draw several hints at one
 * position: Helix puts every hint's left padding first and the labels after, run together
 * (`flashboot OFFtimeout 300000 ms`) whatever padding each asks for, so the gap between them has to be in
 * the label.
 */
import { specCost, type SpecCost } from '../../core/billing/cost';
import { formatUsdRange, type UsdRange } from '../../core/billing/format';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import type { CheckResult } from '../../core/endpointSpec/check';
import { contract, fieldApplies, unitOf } from '../../core/endpointSpec/contract';
import { valueAt } from '../../core/endpointSpec/schemaValidation';
import { schemaViewAt } from '../../core/endpointSpec/schemas';
import type { InlayHintSettings } from '../../core/protocol';
import { findProperty, spanEnd, type ObjectNode, type SpecDocument, type TextSpan } from '../../core/endpointSpec/tree';
import { costMarkdown } from './costHover';

export interface SpecInlayHint {
  /** Where the hint is drawn: after the character before this offset. */
  readonly offset: number;
  readonly label: string;
  /** Markdown. */
  readonly tooltip: string;
}

/** Between the labels of hints joined at one offset: a gap as wide as the one an editor leaves between two hints. */
export const JOINED_HINT_GAP = '  ';

/** Between their tooltips: a Markdown rule, so each part reads as its own note. */
const JOINED_TOOLTIP_RULE = '\n\n---\n\n';

/** The cost per hour a field implies: `workers.min` the always-on cost, `workers.max` the cost at full scale. */
function costAt(field: string, cost: SpecCost): UsdRange | undefined {
  if (field === 'workers.min') return cost.alwaysOn;
  return field === 'workers.max' ? cost.atMax : undefined;
}

/** The hints of every document of `analysis` that overlaps `range` (offsets), in text order. */
export function inlayHintsIn(
  text: string,
  analysis: CheckResult,
  range: TextSpan,
  options: InlayHintSettings,
  catalog?: Catalog,
): SpecInlayHint[] {
  if (!options.defaults && !options.cost) return [];
  const hints = analysis.documents
    .filter((document) => document.span.offset <= spanEnd(range) && spanEnd(document.span) >= range.offset)
    .flatMap((document) => documentHints(text, document, options, catalog));
  // A stable sort: hints at one offset keep the order the schema states its defaults in.
  return oneHintPerOffset(hints.filter((h) => h.offset >= range.offset && h.offset <= spanEnd(range)).sort((a, b) => a.offset - b.offset));
}

/**
 * Hints sorted by offset, those at one offset joined into one (labels and tooltips in their order). Hints of
 * other sources that can fall at the same offsets (an environment's value beside `workers.max`) need it too.
 */
export function oneHintPerOffset(sorted: readonly SpecInlayHint[]): SpecInlayHint[] {
  const joined: SpecInlayHint[] = [];
  for (const hint of sorted) {
    const previous = joined.at(-1);
    if (previous?.offset !== hint.offset) {
      joined.push(hint);
      continue;
    }
    joined[joined.length - 1] = {
      offset: hint.offset,
      label: `${previous.label}${JOINED_HINT_GAP}${hint.label}`,
      tooltip: `${previous.tooltip}${JOINED_TOOLTIP_RULE}${hint.tooltip}`,
    };
  }
  return joined;
}

function documentHints(text: string, document: SpecDocument, options: InlayHintSettings, catalog?: Catalog): SpecInlayHint[] {
  const root = document.root;
  if (root?.kind !== 'object') return [];
  // A spec the catalog cannot price gets no cost hint; its hover says why.
  const cost = options.cost && catalog ? specCost(document.data, catalog) : undefined;
  const hints: SpecInlayHint[] = [];
  for (const [field, value] of contract().defaults) {
    const place = placeOf(text, root, field, document.data);
    // An overlay's data is its merged body: a field its base sets is not left out, though the overlay's text lacks
    // it, and its hints belong beside the base's line, not here.
    if (!place || (place.missing && valueAt(document.data, field.split('.')) !== undefined)) continue;
    if (place.missing && options.defaults && fieldApplies(field, document.data))
      hints.push({
        offset: place.offset,
        label: `${place.label} ${valueText(field, value)}`,
        tooltip: defaultTooltip(field, value),
      });
    const perHour = cost && costAt(field, cost);
    if (cost && perHour) hints.push({ offset: place.offset, label: `${formatUsdRange(perHour)}/h`, tooltip: costMarkdown(cost) });
  }
  return hints;
}

interface Place {
  readonly offset: number;
  /** The field is not written: its default applies. */
  readonly missing: boolean;
  /** How the field is named at that place: its key inside its object, its dotted path at the root. */
  readonly label: string;
}

/**
 * Where a field's hints go: after its value when it is written; otherwise at the end of its object, where
 * it would be added. A field of an object the spec leaves out is placed at the end of the root, but only
 * when the service gives that object its defaults (an object with required fields, such as `gpu`, is not
 * there at all); a field under something that is not an object (a mistake the diagnostics report) gets none.
 */
function placeOf(text: string, root: ObjectNode, field: string, data: unknown): Place | undefined {
  if (field.includes('[]')) return undefined;
  const segments = field.split('.');
  let object: ObjectNode = root;
  for (let depth = 0; depth < segments.length - 1; depth++) {
    const property = findProperty(object, segments[depth]);
    if (!property) {
      const absent = schemaViewAt(segments.slice(0, depth + 1), data);
      return absent && absent.required.length === 0 ? { offset: appendOffset(text, object), missing: true, label: field } : undefined;
    }
    if (property.value?.kind !== 'object') return undefined;
    object = property.value;
  }
  const key = segments[segments.length - 1];
  const property = findProperty(object, key);
  if (property)
    return { offset: trimmedEnd(text, property.value ?? property.keySpan, property.keySpan.offset), missing: false, label: key };
  return { offset: appendOffset(text, object), missing: true, label: object === root ? field : key };
}

/** After the object's last property (a new field is added after it), or just inside `{` when it has none. */
function appendOffset(text: string, object: ObjectNode): number {
  const last = object.properties.at(-1);
  if (!last) return object.flow ? object.offset + 1 : trimmedEnd(text, object, object.offset);
  return trimmedEnd(text, last.value ?? last.keySpan, last.keySpan.offset);
}

/** The end of `span` without the whitespace and line breaks a block node's span can end with. */
function trimmedEnd(text: string, span: TextSpan, floor: number): number {
  let end = spanEnd(span);
  while (end > floor && /\s/.test(text[end - 1])) end--;
  return end;
}

function valueText(field: string, value: unknown): string {
  const unit = unitOf(field);
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return unit ? `${shown} ${unit}` : shown;
}

function defaultTooltip(field: string, value: unknown): string {
  const description = schemaViewAt(field.split('.'))?.description;
  const lines = [`**${field}** is left out: the service applies its default, \`${JSON.stringify(value)}\`.`];
  if (description) lines.push('', description);
  return lines.join('\n');
}
