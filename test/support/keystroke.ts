/** Keystroke-like random edits, for the tests that hold incremental checks to full ones. */

/** What a person types inside a value, the characters that end or change a scalar among them. */
const TYPED = ['0', '7', 'a', 'Z', '.', '-', '_', ' ', ':', '#', ',', ']', '[', '{', '"', "'", '\\', '~', '!', '&', '*', 'é', '\t', '\n'];

/** A keystroke near a value: a character typed, deleted or replaced somewhere after the first `: ` or `- ` of a line. */
export function keystroke(text: string, next: () => number): string {
  const lines = text.split('\n');
  const line = Math.floor(next() * lines.length);
  const valueStart = Math.max(lines[line].indexOf(': ') + 2, lines[line].indexOf('- ') + 2, 0);
  const column = valueStart + Math.floor(next() * (lines[line].length - valueStart + 1));
  const at = lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0) + Math.min(column, lines[line].length);
  const typed = TYPED[Math.floor(next() * TYPED.length)];
  const action = next();
  if (action < 0.25) return text.slice(0, at) + text.slice(at + 1);
  if (action < 0.4) return text.slice(0, at) + typed + text.slice(at + 1);
  return text.slice(0, at) + typed + text.slice(at);
}
