/**
 * The two sides of a live ↔ spec diff, written so that the diff shows what a deploy changes and nothing else. Both
 * are in one field order (fieldOrder.ts). Against a live endpoint, the spec side is the endpoint as a deploy of the
 * spec leaves it: a field the plan finds unchanged is written as the live side writes it (pools in the live order,
 * the command as the service spells it), and a field the spec leaves to the service, to its template or to a
 * default is written with the value it takes and listed as filled in, for the editor to mark beside the line rather
 * than in it (a mark in the text would be a difference of its own). So an endpoint that matches its spec diffs
 * empty, and each of the plan's changes is one difference.
 */
import { parseSpecText } from '../endpointSpec/parse';
import { findProperty, formatFieldPath, type JsonPathSegment, type SpecNode } from '../endpointSpec/tree';
import { toServiceBody } from '../endpointSpec/validate';
import { CREATE_ENDPOINT_FIELDS, type Endpoint } from '../api/types';
import { diffEffective, specManages } from './diff';
import { effectiveSpec, isEmpty, liveAsSpec, type EffectiveSpec, type Spec } from './effective';
import { inSpecOrder } from './fieldOrder';
import { record } from '../endpointSpec/rules/rule';

/** Why the spec side shows a value its spec does not write: the service chose it, the spec's template did, or it is the default. */
export type FilledBy = 'service' | 'template' | 'default';

/** A field of the spec side that its spec does not write. */
export interface FilledField {
  readonly segments: readonly JsonPathSegment[];
  readonly by: FilledBy;
}

export interface SpecSide {
  readonly spec: Spec;
  /** In the order they are written. */
  readonly filled: readonly FilledField[];
  /** The template the spec names; a create-only field, left off the side written against a live endpoint. */
  readonly templateId?: string;
}

/** A filled-in field's line in the side's text (0-based), to mark. */
export interface FilledLine {
  readonly line: number;
  /** Where the line's text ends, for a mark after it. */
  readonly end: number;
  readonly by: FilledBy;
}

const COMMAND_FIELDS = ['args', 'entrypoint', 'cmd'] as const;
const CREATE_FIELDS: ReadonlySet<string> = new Set(CREATE_ENDPOINT_FIELDS);

/** The live side: the endpoint as a create body (`liveAsSpec`), in the one order. */
export function liveSide(endpoint: Endpoint | Spec): Spec {
  return inSpecOrder(liveAsSpec(endpoint));
}

/**
 * The spec side: the body a deploy sends, in the one order; against `live`, the endpoint as that deploy leaves it,
 * with what the spec does not write listed in `filled`.
 */
export function specSide(input: Spec, live?: Endpoint | Spec): SpecSide {
  const body = toServiceBody(input);
  const templateId = typeof body.templateId === 'string' ? body.templateId : undefined;
  const template = templateId !== undefined ? { templateId } : {};
  if (live === undefined) return { spec: inSpecOrder(body), filled: [], ...template };
  const liveSpec = liveAsSpec(live);
  const mine = effectiveSpec(body);
  const sides: Sides = {
    spec: body,
    live: liveSpec,
    mine,
    changed: new Set(diffEffective(mine, effectiveSpec(liveSpec)).map((change) => change.path)),
    filled: [],
  };
  return { spec: inSpecOrder(writeSide(sides)), filled: sides.filled, ...template };
}

interface Sides {
  readonly spec: Spec;
  readonly live: Spec;
  readonly mine: EffectiveSpec;
  /** The plan's changed paths. */
  readonly changed: ReadonlySet<string>;
  readonly filled: FilledField[];
}

function writeSide(sides: Sides): Spec {
  const out: Spec = {};
  const put = (key: string, value: unknown): void => {
    if (value !== undefined) out[key] = value;
  };
  for (const key of CREATE_ENDPOINT_FIELDS) {
    if (key === 'args') Object.assign(out, command(sides));
    else if (key === 'env' || key === 'gpu' || key === 'workers' || key === 'scaling') put(key, nested(sides, key));
    // `templateId` only matters to a create; entrypoint and cmd go with args.
    else if (key !== 'templateId' && key !== 'entrypoint' && key !== 'cmd') put(key, pick(sides, [key], sides.spec[key], sides.live[key]));
  }
  // What the create body does not know is sent as the spec writes it.
  for (const key of Object.keys(sides.spec)) if (!CREATE_FIELDS.has(key)) out[key] = sides.spec[key];
  return out;
}

/** What the spec side shows for one field: the spec's value where the plan changes it, else the live one. */
function pick(sides: Sides, segments: readonly JsonPathSegment[], mine: unknown, theirs: unknown): unknown {
  const path = formatFieldPath(segments);
  const written = mine !== undefined;
  if (!specManages(sides.mine, path, segments)) {
    if (theirs !== undefined) sides.filled.push({ segments, by: sides.mine.templateId !== undefined ? 'template' : 'service' });
    return theirs;
  }
  if (sides.changed.has(path)) {
    if (written) return mine;
    // Left out of the spec, so a deploy sets the default.
    const fallback = sides.mine.fields.get(path)?.value;
    if (isEmpty(fallback)) return undefined;
    sides.filled.push({ segments, by: 'default' });
    return fallback;
  }
  const shown = theirs !== undefined ? theirs : isEmpty(mine) ? undefined : mine;
  if (!written && shown !== undefined) sides.filled.push({ segments, by: 'default' });
  return shown;
}

/** `env` key by key, `gpu`, `workers` and `scaling` field by field; undefined when nothing is left of it. */
function nested(sides: Sides, field: string): Spec | undefined {
  const mine = record(sides.spec[field]);
  const theirs = record(sides.live[field]);
  const out: Spec = {};
  for (const key of new Set([...Object.keys(mine ?? {}), ...Object.keys(theirs ?? {})])) {
    const value = pick(sides, [field, key], mine?.[key], theirs?.[key]);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The command as one: `args` or `entrypoint`/`cmd`, as the spec spells it where the plan changes it, else as the live one. */
function command(sides: Sides): Spec {
  const unmanaged = !specManages(sides.mine, 'cmd', ['cmd']);
  const changed = sides.changed.has('entrypoint') || sides.changed.has('cmd');
  const from = unmanaged || !changed ? sides.live : sides.spec;
  const out: Spec = {};
  for (const key of COMMAND_FIELDS) {
    if (from[key] === undefined) continue;
    out[key] = from[key];
    if (unmanaged) sides.filled.push({ segments: [key], by: 'template' });
  }
  return out;
}

/** What a mark beside a filled-in line says. */
export function filledNote(by: FilledBy, templateId?: string): string {
  if (by === 'default') return 'default';
  if (by === 'template')
    return templateId !== undefined ? `set by the service from template ${templateId}` : 'set by the service from the template';
  return 'set by the service';
}

/** The line of each filled-in field's key in a side written as YAML (serializeSpec); a field not found there is skipped. */
export function filledLines(yaml: string, filled: readonly FilledField[]): FilledLine[] {
  const root = parseSpecText(yaml, 'yaml').at(0)?.root;
  const starts = [0];
  for (let i = yaml.indexOf('\n'); i >= 0; i = yaml.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineOf = (offset: number): number => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
    return line;
  };
  const lines: FilledLine[] = [];
  for (const { segments, by } of filled) {
    const offset = keyOffset(root, segments);
    if (offset === undefined) continue;
    const line = lineOf(offset);
    const next = starts.at(line + 1);
    lines.push({ line, end: (next === undefined ? yaml.length : next - 1) - starts[line], by });
  }
  return lines;
}

function keyOffset(root: SpecNode | undefined, segments: readonly JsonPathSegment[]): number | undefined {
  let node = root;
  let offset: number | undefined;
  for (const segment of segments) {
    const property = typeof segment === 'string' ? findProperty(node, segment) : undefined;
    if (!property) return undefined;
    offset = property.keySpan.offset;
    node = property.value;
  }
  return offset;
}
