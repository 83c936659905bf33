/**
 * How deeply a text nests, found with one pass over its characters before any parser sees it.
 *
 * Both parsers the specs go through recurse once per level of nesting: the YAML composer runs out
 * of stack somewhere between 500 and 1,000 levels (it catches that, but V8 has been seen to abort
 * the whole process with an out-of-memory error when it next compiles a regular expression that
 * close to the stack limit), and the JSON tree builder throws `RangeError` well before 10,000.
 * A spec is never more than a dozen levels deep, so text that nests past a few hundred is refused
 * here, in linear time, and the parsers never get to recurse that far.
 */

/**
 * Offset at which the JSON text first nests deeper than `limit` (arrays and objects, outside
 * strings), or -1. Exact for JSON: strings are the only place a bracket is not structure.
 */
export function jsonNestingBeyond(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */ || c === 0x0a /* \n: the JSON scanner ends an unterminated string here */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return i;
    } else if ((c === 0x5d /* ] */ || c === 0x7d) /* } */ && depth > 0) depth--;
  }
  return -1;
}

/**
 * Offset of the first line at which an upper bound of the YAML text's nesting passes `limit`, or -1.
 *
 * The bound is generous rather than exact, since only absurd depths are refused: every distinct
 * indentation level of the block structure counts twice (a sequence may sit at its key's
 * indentation), every `- `, `? ` and `: ` that opens a line counts once (compact nesting such as
 * `- - - x`), and open flow brackets count once each. Quoted scalars, comments and the content of
 * block scalars (`|`, `>`) are skipped, so brackets written as text never count.
 */
export function yamlNestingBeyond(text: string, limit: number): number {
  const indents: number[] = [];
  let flow = 0;
  let quote = 0; // the open quote character, or 0
  let blockScalarParent = -1; // indentation of the line that opened a block scalar, or -1
  for (let at = 0; at < text.length;) {
    const lineBreak = text.indexOf('\n', at);
    const end = lineBreak === -1 ? text.length : lineBreak;
    let i = at;
    while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
    const indent = i - at;
    const blank = i === end || text.charCodeAt(i) === 0x0d || (text.charCodeAt(i) === 0x23 /* # */ && quote === 0);
    if (blockScalarParent >= 0 && (blank || indent > blockScalarParent)) {
      at = end + 1;
      continue; // text of a block scalar
    }
    blockScalarParent = -1;
    if (blank && quote === 0) {
      at = end + 1;
      continue;
    }
    let compact = 0;
    if (quote === 0 && flow === 0) {
      while (indents.length > 0 && indents[indents.length - 1] >= indent) indents.pop();
      indents.push(indent);
      // Compact collections: each indicator followed by a space (or the line's end) opens one level.
      while (i < end && isCompactIndicator(text.charCodeAt(i)) && (i + 1 === end || isSpace(text.charCodeAt(i + 1)))) {
        compact++;
        i++;
        while (i < end && isSpace(text.charCodeAt(i))) i++;
      }
    }
    let previous = 0x20; // what came before, for telling a value's first quote from an apostrophe
    let lastSignificant = 0;
    let contentEnd = end;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (quote !== 0) {
        if (quote === 0x22 && c === 0x5c) i++;
        else if (c === quote) {
          if (quote === 0x27 && text.charCodeAt(i + 1) === 0x27)
            i++; // '' is an escaped quote
          else quote = 0;
        }
        lastSignificant = c;
        continue;
      }
      if (c === 0x23 && isSpace(previous)) {
        contentEnd = i; // a comment runs to the line's end
        break;
      }
      if ((c === 0x22 || c === 0x27) && startsValue(previous, lastSignificant)) quote = c;
      else if (c === 0x5b || c === 0x7b) {
        if (indents.length * 2 + compact + ++flow > limit) return at;
      } else if ((c === 0x5d || c === 0x7d) && flow > 0) flow--;
      previous = c;
      if (!isSpace(c)) lastSignificant = c;
    }
    if (indents.length * 2 + compact + flow > limit) return at;
    if (quote === 0 && flow === 0 && endsWithBlockHeader(text, at, contentEnd)) blockScalarParent = indent;
    at = end + 1;
  }
  return -1;
}

/** Blanks within a line; a carriage return of a CRLF line end counts as one. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d;
}

function isCompactIndicator(c: number): boolean {
  return c === 0x2d /* - */ || c === 0x3f /* ? */ || c === 0x3a; /* : */
}

/** What may come before a value: nothing yet, `:`, `-`, `?`, `,`, `[` or `{`. */
const VALUE_AFTER = new Set([0, 0x3a, 0x2d, 0x3f, 0x2c, 0x5b, 0x7b]);

/** A quote opens a quoted scalar only where a value can start: not inside a plain word like don't. */
function startsValue(previous: number, lastSignificant: number): boolean {
  if (!isSpace(previous) && previous !== 0x5b && previous !== 0x7b && previous !== 0x2c) return false;
  return VALUE_AFTER.has(lastSignificant);
}

/** `key: |-`, `- >2` and the like: the line's content ends with a block scalar header. */
function endsWithBlockHeader(text: string, start: number, end: number): boolean {
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  let i = end;
  // Up to three indicators: chomping (+, -) and an indentation digit, in either order.
  while (i > start && end - i < 3 && /[-+0-9]/.test(text[i - 1])) i--;
  const header = text.charCodeAt(i - 1);
  if (i <= start || (header !== 0x7c /* | */ && header !== 0x3e) /* > */) return false;
  const before = i - 1 === start ? 0x20 : text.charCodeAt(i - 2);
  return isSpace(before) || before === 0x3a || before === 0x2d;
}
