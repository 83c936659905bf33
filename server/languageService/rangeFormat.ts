/**
 * Range formatting that keeps to its range. Editors send the lines a user selected (Neovim's `V`, an Emacs
 * region: from column 0 of the first line, often to column 0 of the line after) and apply every edit they
 * get back, so an edit reaching past either end changes text nobody selected. The formatted text is
 * compared with the original line by line; each run of changed lines becomes a group of the smallest edits
 * that make it (a line's indentation apart from the rest of it), and only the edits inside the range are
 * kept. A group is kept whole when that keeps the spec's meaning; otherwise (the other lines of a block
 * whose indentation changes lie outside the range) each of its edits is kept only if it does on its own.
 */
import { spanEnd, type TextSpan } from '../../core/endpointSpec/tree';
import type { TextEdit } from './edits';

/** Each try re-parses the whole file: past this many, the rest of the range is left as it is. */
const MAX_TRIES = 100;

/** Above this many line pairs the changed middle is one group rather than a line diff (a spec is far smaller). */
const MAX_DIFF_CELLS = 4_000_000;

/** One edit replacing only what differs between the two texts (their common start and end stay). */
export function minimalEdit(before: string, after: string, offset: number): TextEdit[] {
  if (before === after) return [];
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return [{ offset: offset + start, length: before.length - start - end, newText: after.slice(start, after.length - end) }];
}

/** The changes from `before` (found at `offset` in the file) to `after`: one group per run of changed lines. */
export function lineChanges(before: string, after: string, offset: number): TextEdit[][] {
  const [was, now] = [linesOf(before), linesOf(after)];
  const starts: number[] = [];
  for (let line = 0, at = offset; line <= was.length; line++) {
    starts.push(at);
    at += was[line]?.length ?? 0;
  }
  return changedRuns(was, now).map((run) => {
    const removed = was.slice(run.was, run.wasEnd);
    const added = now.slice(run.now, run.nowEnd);
    if (removed.length !== added.length) return minimalEdit(removed.join(''), added.join(''), starts[run.was]);
    return removed.flatMap((line, i) => lineEdits(line, added[i], starts[run.was + i]));
  });
}

/** A changed line as two edits, its indentation and the rest, so either can be kept without the other. */
function lineEdits(before: string, after: string, offset: number): TextEdit[] {
  const indentBefore = /^[ \t]*/.exec(before)?.[0] ?? '';
  const indentAfter = /^[ \t]*/.exec(after)?.[0] ?? '';
  return [
    ...minimalEdit(indentBefore, indentAfter, offset),
    ...minimalEdit(before.slice(indentBefore.length), after.slice(indentAfter.length), offset + indentBefore.length),
  ];
}

/** The edits of `groups` inside `range` that keep the spec's meaning (as `keeps` judges a set of edits). */
export function editsWithin(groups: readonly TextEdit[][], range: TextSpan, keeps: (edits: readonly TextEdit[]) => boolean): TextEdit[] {
  const inside = groups.map((group) => group.filter((edit) => within(edit, range))).filter((group) => group.length > 0);
  const all = inside.flat();
  if (all.length === 0 || keeps(all)) return all;
  const kept: TextEdit[] = [];
  let tries = 0;
  const keptWith = (more: readonly TextEdit[]): boolean => ++tries <= MAX_TRIES && keeps([...kept, ...more]);
  for (const group of inside) {
    if (keptWith(group)) {
      kept.push(...group);
      continue;
    }
    for (const edit of group.length > 1 ? group : []) if (keptWith([edit])) kept.push(edit);
  }
  return kept;
}

/** Replaces only text inside the range; an insertion may sit at either end. */
function within(edit: TextEdit, range: TextSpan): boolean {
  return edit.offset >= range.offset && edit.offset + edit.length <= spanEnd(range);
}

/** Lines with their line breaks, so they join back to the text. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

interface Run {
  readonly was: number;
  readonly wasEnd: number;
  readonly now: number;
  readonly nowEnd: number;
}

/** The runs of lines that differ, from a longest common subsequence of the lines. */
function changedRuns(was: readonly string[], now: readonly string[]): Run[] {
  let head = 0;
  while (head < was.length && head < now.length && was[head] === now[head]) head++;
  let tail = 0;
  while (tail < was.length - head && tail < now.length - head && was[was.length - 1 - tail] === now[now.length - 1 - tail]) tail++;
  const [rows, columns] = [was.length - head - tail, now.length - head - tail];
  if (rows === 0 && columns === 0) return [];
  if (rows * columns > MAX_DIFF_CELLS) return [{ was: head, wasEnd: head + rows, now: head, nowEnd: head + columns }];
  const same = (i: number, j: number): boolean => was[head + i] === now[head + j];
  // common[i][j]: the longest common subsequence of the lines from i and from j on.
  const width = columns + 1;
  const common = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--)
    for (let j = columns - 1; j >= 0; j--)
      common[i * width + j] = same(i, j)
        ? common[(i + 1) * width + j + 1] + 1
        : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
  const runs: Run[] = [];
  let open: { was: number; now: number } | undefined;
  let [i, j] = [0, 0];
  const close = (): void => {
    if (open) runs.push({ was: head + open.was, wasEnd: head + i, now: head + open.now, nowEnd: head + j });
    open = undefined;
  };
  while (i < rows || j < columns) {
    if (i < rows && j < columns && same(i, j)) {
      close();
      i++;
      j++;
      continue;
    }
    open ??= { was: i, now: j };
    if (j < columns && (i === rows || common[i * width + j + 1] >= common[(i + 1) * width + j])) j++;
    else i++;
  }
  close();
  return runs;
}
