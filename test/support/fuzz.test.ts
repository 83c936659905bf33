/**
 * The property-test helper: the same seed draws the same inputs every run, and a failure tells how to
 * replay it, so a red run on one machine can be reproduced on another.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fuzz, FUZZ_SEED, replayCommand } from './fuzz';

describe('fuzz', () => {
  it('draws the same inputs on every run of the same seed', () => {
    const draws = (): number[] => {
      const seen: number[] = [];
      fuzz(
        fc.property(fc.integer(), (n) => {
          seen.push(n);
        }),
        { numRuns: 20 },
      );
      return seen;
    };
    const first = draws();
    assert.equal(first.length, 20);
    assert.deepEqual(draws(), first);
  });

  it('a failing property names its seed and the command that replays this file', () => {
    assert.match(replayCommand(), new RegExp(`^FC_SEED=${FUZZ_SEED} node scripts/run-tests\\.mjs test/support/fuzz\\.test\\.ts$`));
    assert.throws(
      () => {
        fuzz(fc.property(fc.nat(), (n) => n < 0));
      },
      (error: Error) => {
        assert.match(error.message, new RegExp(`seed: ${FUZZ_SEED}`));
        assert.ok(error.message.includes(`Replay this run with: ${replayCommand()}`), error.message);
        return true;
      },
    );
  });

  it('an async property that fails is reported the same way', async () => {
    await assert.rejects(fuzz(fc.asyncProperty(fc.nat(), (n) => Promise.resolve(n < 0))), (error: Error) =>
      error.message.includes(`Replay this run with: ${replayCommand()}`),
    );
  });
});
