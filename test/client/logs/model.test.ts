/** The log panel's ring buffer, filter, save format and webview message validation. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWebviewMessage } from '../../../client/logs/messages';
import { compileFilter, formatRow, RingBuffer, type LogRow } from '../../../client/logs/model';

const row = (seq: number, text: string, extra: Partial<LogRow> = {}): LogRow => ({
  seq,
  ts: '2026-01-01T00:00:00.000Z',
  worker: 'w1',
  source: 'container',
  text,
  id: `id${seq}`,
  ...extra,
});

describe('RingBuffer', () => {
  it('keeps the newest rows up to its capacity however many are pushed', () => {
    const ring = new RingBuffer<number>(1000);
    for (let i = 0; i < 250_000; i++) ring.push(i);
    assert.equal(ring.size, 1000);
    const all = ring.toArray();
    assert.equal(all[0], 249_000);
    assert.equal(all[999], 249_999);
    assert.equal(ring.dropped, 249_000);
  });

  it('keeps insertion order before it wraps, clears, and resizes to the newest rows', () => {
    const ring = new RingBuffer<number>(5);
    [1, 2, 3].forEach((n) => {
      ring.push(n);
    });
    assert.deepEqual(ring.toArray(), [1, 2, 3]);
    [4, 5, 6, 7].forEach((n) => {
      ring.push(n);
    });
    assert.deepEqual(ring.toArray(), [3, 4, 5, 6, 7]);
    ring.resize(2);
    assert.deepEqual(ring.toArray(), [6, 7]);
    ring.resize(4);
    ring.push(8);
    assert.deepEqual(ring.toArray(), [6, 7, 8]);
    ring.clear();
    assert.deepEqual(ring.toArray(), []);
    assert.throws(() => new RingBuffer(0), RangeError);
  });
});

describe('compileFilter', () => {
  const rows = [
    row(1, 'Worker ready.'),
    row(2, 'job abc started'),
    row(3, 'ERROR: out of memory'),
    row(4, 'stream dropped', { source: 'marker' }),
  ];
  const shown = (text: string, regex: boolean): number[] => {
    const compiled = compileFilter({ text, regex });
    if ('error' in compiled) throw new Error(compiled.error);
    return rows.filter(compiled.test).map((r) => r.seq);
  };

  it('matches text case-insensitively and always keeps markers', () => {
    assert.deepEqual(shown('', false), [1, 2, 3, 4]);
    assert.deepEqual(shown('error', false), [3, 4]);
    assert.deepEqual(shown('a.c', false), [4], 'plain text is not a pattern');
  });

  it('matches regular expressions and reports an invalid one', () => {
    assert.deepEqual(shown('^job \\w+ started$', true), [2, 4]);
    assert.deepEqual(shown('a.c', true), [2, 4]);
    const bad = compileFilter({ text: '(unclosed', regex: true });
    assert.ok('error' in bad && /unterminated|group/i.test(bad.error));
  });

  it('saves rows with timestamp, worker and source', () => {
    assert.equal(formatRow(row(1, 'hello'), true), '2026-01-01T00:00:00.000Z [w1/container] hello');
    assert.equal(formatRow(row(1, 'hello', { source: 'system' }), false), '2026-01-01T00:00:00.000Z [system] hello');
    assert.match(formatRow(row(1, 'dropped', { source: 'marker' }), true), /----- dropped -----$/);
  });
});

describe('parseWebviewMessage', () => {
  it('accepts exactly the known messages', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'pause', paused: true }), { type: 'pause', paused: true });
    assert.deepEqual(parseWebviewMessage({ type: 'source', source: 'system' }), { type: 'source', source: 'system' });
    assert.deepEqual(parseWebviewMessage({ type: 'tail', tail: 500 }), { type: 'tail', tail: 500 });
    assert.deepEqual(parseWebviewMessage({ type: 'filter', text: 'x', regex: false }), { type: 'filter', text: 'x', regex: false });
  });

  it('rejects unknown types, wrong field types, extra fields and out-of-range values', () => {
    for (const bad of [
      null,
      'ready',
      [],
      { type: 'eval', code: '1' },
      { type: 'pause', paused: 'yes' },
      { type: 'source', source: 'kernel' },
      { type: 'tail', tail: 7 },
      { type: 'tail', tail: '100' },
      { type: 'filter', text: 1, regex: false },
      { type: 'filter', text: 'x'.repeat(501), regex: true },
      { type: 'clear', path: '/etc/passwd' },
      { type: 'save', uri: 'file:///x' },
    ]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
