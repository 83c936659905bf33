/**
 * A rollout is called stalled or failed after the same time in the editor, the CLI and the agent tools: they take
 * ROLLOUT_DEFAULTS. The editor's setting repeats the stall time as data in package.json; this holds it equal.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROLLOUT_DEFAULTS } from '../../../core/operations';
import { REPO_ROOT } from '../../support/lspClient';

interface Setting {
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Setting> } };
};

describe('the rollout defaults', () => {
  it('are the editor setting’s default, in seconds', () => {
    const setting = manifest.contributes.configuration.properties['endpointStudio.rollout.stallAfterSeconds'];
    assert.equal(setting.default, ROLLOUT_DEFAULTS.stallAfterMs / 1000);
    assert.ok(
      (setting.minimum ?? 0) <= ROLLOUT_DEFAULTS.stallAfterMs / 1000 &&
        ROLLOUT_DEFAULTS.stallAfterMs / 1000 <= (setting.maximum ?? Infinity),
    );
  });
});
