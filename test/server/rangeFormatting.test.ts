/**
 * Range formatting over real LSP stdio keeps to its range. Neovim (`V`) and Emacs send whole lines, from
 * column 0 of the first to the end of the last or to column 0 of the line after, and apply every edit they
 * get: each edit must lie inside the range, so the lines around it, line breaks included, stay as they were.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FormattingOptions, Position, Range, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspClient } from '../support/lspClient';

const OPTIONS: FormattingOptions = { tabSize: 2, insertSpaces: true };
let counter = 0;

const MESSY_YAML = `name:   "messy"
type: 'QUEUE'
# the image, quoted
image: "myorg/messy:1.0"
gpu:
    pools: [ ADA_24 ]
    count:   1
workers:
    min: 0
    max:   3
    idleTimeout: 5
env:
    MODE: 'fast'
`;

const MESSY_JSON = `{
  "name": "messy",
  "image":"myorg/messy:1.0",
  "gpu": {
    "pools":[ "ADA_24" ],
        "count":1
  },
  "workers": {"min": 0,"max": 3}
}
`;

/** The text with lines `from` to `to` (inclusive) replaced. */
function withLines(text: string, from: number, to: number, lines: string[]): string {
  const all = text.split('\n');
  all.splice(from, to - from + 1, ...lines);
  return all.join('\n');
}

const notAfter = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);

/** Whole lines `first` to `last`, ending as Neovim's `V` does (at the end of the last) or at column 0 of the next. */
function lines(text: string, first: number, last: number, end: 'line end' | 'next line'): Range {
  const endAt = end === 'line end' ? { line: last, character: text.split('\n')[last].length } : { line: last + 1, character: 0 };
  return { start: { line: first, character: 0 }, end: endAt };
}

describe('range formatting keeps to its range', () => {
  let client: LspClient;
  let ordered: LspClient;
  before(async () => {
    client = await LspClient.start({ pull: true });
    ordered = await LspClient.start({
      pull: true,
      capabilities: { workspace: { configuration: true } },
      settings: { endpointStudio: { format: { contractOrder: true } } },
    });
  });
  after(async () => {
    await client.stop();
    await ordered.stop();
  });

  /** Formats `range`, checks that every edit lies inside it, and answers the text with the edits applied. */
  async function formatRange(text: string, range: Range, ext = 'yaml', on = client): Promise<string> {
    const uri = `file:///workspace/range-${++counter}.endpoint.${ext}`;
    await on.open(uri, text);
    const edits: TextEdit[] = await on.connection.sendRequest('textDocument/rangeFormatting', {
      textDocument: { uri },
      options: OPTIONS,
      range,
    });
    for (const edit of edits)
      assert.ok(
        notAfter(range.start, edit.range.start) && notAfter(edit.range.end, range.end),
        `an edit outside ${JSON.stringify(range)}: ${JSON.stringify(edit)}`,
      );
    return TextDocument.applyEdits(TextDocument.create(uri, ext, 1, text), edits);
  }

  it('formats the lines selected from column 0 and leaves the line above alone, its line break included', async () => {
    const gpu = withLines(MESSY_YAML, 4, 6, ['gpu:', '  pools: [ADA_24]', '  count: 1']);
    assert.equal(await formatRange(MESSY_YAML, lines(MESSY_YAML, 4, 6, 'next line')), gpu);
    assert.equal(await formatRange(MESSY_YAML, lines(MESSY_YAML, 4, 6, 'line end')), gpu);
    assert.match(gpu, /\n# the image, quoted\nimage: "myorg\/messy:1\.0"\ngpu:\n/, 'the quoted image above stays quoted');
  });

  it('formats the lines of a section without its key line, when the range starts at column 0 inside it', async () => {
    for (const end of ['line end', 'next line'] as const)
      assert.equal(
        await formatRange(MESSY_YAML, lines(MESSY_YAML, 8, 10, end)),
        withLines(MESSY_YAML, 8, 10, ['  min: 0', '  max: 3', '  idleTimeout: 5']),
        end,
      );
  });

  it('re-indents none of a block that goes on outside the range, and still tidies the lines inside it', async () => {
    // `min` and `idleTimeout` lie outside: `max` alone at 2 spaces would leave its mapping, so it keeps its indent.
    assert.equal(await formatRange(MESSY_YAML, lines(MESSY_YAML, 9, 9, 'next line')), withLines(MESSY_YAML, 9, 9, ['    max: 3']));
    assert.equal(await formatRange(MESSY_YAML, lines(MESSY_YAML, 5, 5, 'line end')), withLines(MESSY_YAML, 5, 5, ['    pools: [ADA_24]']));
  });

  it('leaves the text as it is when nothing inside the range needs formatting', async () => {
    const text = 'name: a\ntype: QUEUE\nimage:   "x"\n';
    assert.equal(await formatRange(text, lines(text, 0, 1, 'next line')), text);
  });

  it('puts keys in the contract order inside the range, and none outside it', async () => {
    const text = 'name:   "a"\ntype: QUEUE\nworkers:\n    max: 3\n    min: 0\nenv:\n    B: "1"\n    A: "2"\n';
    assert.equal(
      await formatRange(text, lines(text, 3, 4, 'next line'), 'yaml', ordered),
      'name:   "a"\ntype: QUEUE\nworkers:\n  min: 0\n  max: 3\nenv:\n    B: "1"\n    A: "2"\n',
    );
  });

  it('formats only the lines of a JSON spec the range covers', async () => {
    // jsonc-parser's style: the first line's indentation is kept, and lists spread one item a line.
    const gpu = withLines(MESSY_JSON, 4, 5, ['    "pools": [', '      "ADA_24"', '    ],', '    "count": 1']);
    assert.equal(await formatRange(MESSY_JSON, lines(MESSY_JSON, 4, 5, 'next line'), 'json'), gpu);
    assert.equal(await formatRange(MESSY_JSON, lines(MESSY_JSON, 4, 5, 'line end'), 'json'), gpu);
    assert.equal(await formatRange(MESSY_JSON, lines(MESSY_JSON, 3, 6, 'next line'), 'json'), gpu, 'the line after stays on one line');
    assert.match(gpu, /\n {2}"image":"myorg\/messy:1\.0",\n/, 'the line above is left alone');
  });
});
