/**
 * A plan token that can no longer be used is refused in the words of the tools it was issued for: a
 * rollback's token names rollback_endpoint and plan_rollback, a deploy's deploy_spec and plan_deploy,
 * whichever tool it is given to; a token never issued is refused as the kind of plan the caller applies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlanTokenStore } from '../../agents';

const deploy = { specPath: '/w/a.endpoint.yaml', document: 0, specHash: 's', liveHash: 'l', planHash: 'p', planText: '' };
const rollback = { kind: 'rollback' as const, endpointId: 'ep1', toVersion: 1, liveHash: 'l', planHash: 'p', planText: '' };

function refused(store: PlanTokenStore, token: string, kind?: 'deploy' | 'rollback'): string {
  const result = store.redeem(token, kind);
  assert.ok(!result.ok, 'refused');
  return result.reason;
}

describe('plan token refusals', () => {
  it('a used token names the tool that applies its kind of plan, and the tool that plans it again', () => {
    const store = new PlanTokenStore();
    const back = store.issue(rollback).token;
    const forward = store.issue(deploy).token;
    assert.equal(store.redeem(back, 'rollback').ok, true);
    assert.equal(store.redeem(forward).ok, true);
    const usedRollback =
      'the plan token was already used (a token is good for one rollback_endpoint call, whatever its outcome); run plan_rollback again';
    assert.equal(refused(store, back, 'rollback'), usedRollback);
    assert.equal(refused(store, back, 'deploy'), usedRollback, 'the token decides, not the tool it was given to');
    assert.equal(
      refused(store, forward, 'rollback'),
      'the plan token was already used (a token is good for one deploy_spec call, whatever its outcome); run plan_deploy again',
    );
  });

  it('an expired or displaced rollback token says to run plan_rollback again', () => {
    let now = 0;
    const store = new PlanTokenStore(() => now, 1_000);
    const late = store.issue(rollback).token;
    now += 1_001;
    assert.equal(refused(store, late), 'the plan token has expired; run plan_rollback again');
    const oldest = store.issue(rollback).token;
    for (let i = 0; i < 200; i++) store.issue(deploy);
    assert.equal(refused(store, oldest), 'the plan token was dropped to make room for 200 newer plans; run plan_rollback again');
  });

  it('a token never issued is refused as the kind of plan the caller applies', () => {
    const store = new PlanTokenStore();
    assert.equal(
      refused(store, 'plan_x', 'rollback'),
      'unknown plan token (tokens live in the server that issued them); run plan_rollback again',
    );
    assert.equal(refused(store, 'plan_x'), 'unknown plan token (tokens live in the server that issued them); run plan_deploy again');
  });
});
