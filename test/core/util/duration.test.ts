/** The one duration format every front-end prints: its steps, and the dash for a missing time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDuration } from '../../../core/util/duration';

describe('formatDuration', () => {
  it('says milliseconds under a second, tenths under ten seconds, then whole seconds and minutes', () => {
    const said = [0, 120.4, 999, 1000, 9_949, 10_000, 59_499, 60_000, 185_200].map(formatDuration);
    assert.deepEqual(said, ['0 ms', '120 ms', '999 ms', '1.0 s', '9.9 s', '10 s', '59 s', '1 min 0 s', '3 min 5 s']);
  });

  it('says a dash for a time the service did not give', () => {
    assert.equal(formatDuration(undefined), '–');
    assert.equal(formatDuration(Number.NaN), '–');
  });
});
