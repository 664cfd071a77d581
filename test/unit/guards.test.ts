import { describe, expect, it } from 'vitest';
import {
  checkGuard,
  isDenyLikeDecision,
  participationNoWidening,
  permissionEscalation,
  spawnSubset,
  taskRunClaim,
  toolIdImmutable,
  workspaceImmutable,
} from '../../src/dialects/compozy/dispatch/guards.js';

const REJECTED = 'hooks: hook patch rejected: hooks: ';

describe('workspace_immutable', () => {
  const payload = { workspace_id: 'w1', workspace: '/ws' };

  it('accepts patches that keep or do not touch the workspace', () => {
    expect(workspaceImmutable(payload, {})).toBeUndefined();
    expect(workspaceImmutable(payload, { workspace_id: 'w1', session_name: 'x' })).toBeUndefined();
  });

  it('refuses a change of workspace_id or workspace', () => {
    expect(workspaceImmutable(payload, { workspace_id: 'w2' })).toBe(
      REJECTED + 'cannot change immutable session workspace_id from "w1" to "w2"',
    );
    expect(workspaceImmutable(payload, { workspace: '/other' })).toBe(
      REJECTED + 'cannot change immutable session workspace from "/ws" to "/other"',
    );
  });
});

describe('task_run_claim', () => {
  const payload = { criteria: { priority_min: 5 } };

  it('refuses a lower priority_min, accepts equal or higher', () => {
    expect(taskRunClaim(payload, { priority_min: 4 })).toBe(
      REJECTED + 'cannot lower task-run claim priority_min from 5 to 4',
    );
    expect(taskRunClaim(payload, { priority_min: 5 })).toBeUndefined();
    expect(taskRunClaim(payload, { priority_min: 6 })).toBeUndefined();
    // No criteria: the floor is 0.
    expect(taskRunClaim({}, { priority_min: -1 })).toBe(
      REJECTED + 'cannot lower task-run claim priority_min from 0 to -1',
    );
  });

  it('refuses a blank capability', () => {
    expect(taskRunClaim(payload, { add_required_capabilities: ['gpu', '  '] })).toBe(
      REJECTED + 'cannot add blank task-run claim capability',
    );
    expect(taskRunClaim(payload, { add_required_capabilities: ['gpu'] })).toBeUndefined();
  });
});

describe('spawn_subset', () => {
  const payload = {
    parent_permissions: { tools: ['read', 'write'], skills: ['s1'] },
    child_permissions: { tools: ['read'] },
  };

  it('refuses a ttl_seconds that is not positive', () => {
    expect(spawnSubset(payload, { ttl_seconds: 0 })).toBe(REJECTED + 'cannot set non-positive spawn ttl_seconds');
    expect(spawnSubset(payload, { ttl_seconds: -3 })).toBe(REJECTED + 'cannot set non-positive spawn ttl_seconds');
    expect(spawnSubset(payload, { ttl_seconds: 60 })).toBeUndefined();
  });

  it('accepts child permissions within the parent per category (trimmed)', () => {
    expect(spawnSubset(payload, { child_permissions: { tools: [' write', 'read'], skills: ['s1'] } })).toBeUndefined();
    expect(spawnSubset(payload, { child_permissions: {} })).toBeUndefined();
  });

  it('refuses an atom the parent lacks, in any category', () => {
    expect(spawnSubset(payload, { child_permissions: { tools: ['read', 'exec'] } })).toBe(
      REJECTED + 'spawn permission patch rejected: child tools permission atom "exec" widens parent permissions',
    );
    expect(spawnSubset(payload, { child_permissions: { mcp_servers: ['m'] } })).toBe(
      REJECTED + 'spawn permission patch rejected: child mcp_servers permission atom "m" widens parent permissions',
    );
  });

  it('refuses blank atoms', () => {
    expect(spawnSubset(payload, { child_permissions: { tools: [' '] } })).toBe(
      REJECTED + 'spawn permission patch rejected: child tools includes a blank permission atom',
    );
  });

  it('checks the payload child permissions when the patch leaves them', () => {
    const widened = { parent_permissions: { tools: ['a'] }, child_permissions: { tools: ['b'] } };
    expect(spawnSubset(widened, { agent_name: 'x' })).toContain('child tools permission atom "b" widens');
  });
});

describe('permission_escalation', () => {
  it('knows the deny-like decisions', () => {
    for (const d of [
      'block',
      'Blocked',
      'DENY',
      ' denied ',
      'reject',
      'rejected',
      'block-all',
      'deny-once',
      'Reject-x',
    ]) {
      expect(isDenyLikeDecision(d)).toBe(true);
    }
    for (const d of ['allow', 'ask', '', 'blocker', 'denial', 'rejects', undefined, 3]) {
      expect(isDenyLikeDecision(d)).toBe(false);
    }
  });

  it('refuses turning a deny-like decision into another', () => {
    expect(permissionEscalation({ decision: 'deny' }, { decision: 'allow' })).toBe(
      REJECTED + 'permission escalation blocked',
    );
    expect(permissionEscalation({ decision: 'Block-Always' }, { decision: '' })).toBe(
      REJECTED + 'permission escalation blocked',
    );
  });

  it('accepts keeping a denial, tightening, or touching nothing', () => {
    expect(permissionEscalation({ decision: 'deny' }, { decision: 'rejected' })).toBeUndefined();
    expect(permissionEscalation({ decision: 'deny' }, { decision_class: 'x' })).toBeUndefined();
    // deny: true wins over an allow in the same patch.
    expect(permissionEscalation({ decision: 'deny' }, { decision: 'allow', deny: true })).toBeUndefined();
    expect(permissionEscalation({ decision: 'allow' }, { decision: 'deny' })).toBeUndefined();
    expect(permissionEscalation({ decision: 'ask' }, { decision: 'allow' })).toBeUndefined();
  });
});

describe('tool_id_immutable', () => {
  it('refuses a changed tool_id only', () => {
    expect(toolIdImmutable({ tool_id: 'a' }, { tool_id: 'b' })).toBe(
      REJECTED + 'cannot change immutable tool_id from "a" to "b"',
    );
    expect(toolIdImmutable({ tool_id: 'a' }, { tool_id: 'a', read_only: true })).toBeUndefined();
    expect(toolIdImmutable({ tool_id: 'a' }, { read_only: true })).toBeUndefined();
  });
});

describe('participation_no_widening', () => {
  const live = {
    mode: 'live',
    channel_strategy: 'named',
    channel_id: 'c1',
    bounds: { max_wakes: 5, max_total_wall_time: '10m', coalesce_window: '1s' },
  };

  it('accepts no request change and any narrowing to local', () => {
    expect(participationNoWidening({ request: live }, {})).toBeUndefined();
    expect(participationNoWidening({ request: live }, { request: { mode: 'local' } })).toBeUndefined();
    expect(participationNoWidening({}, { request: {} })).toBeUndefined(); // no mode = local
  });

  it('refuses widening local or missing requests to live', () => {
    expect(participationNoWidening({ request: { mode: 'local' } }, { request: live })).toBe(
      REJECTED + 'network participation patch rejected: cannot widen "local" participation to live mode',
    );
    expect(participationNoWidening({}, { request: live })).toBe(
      REJECTED + 'network participation patch rejected: a missing request can only be narrowed to local mode',
    );
  });

  it('refuses a live request on another channel', () => {
    expect(participationNoWidening({ request: live }, { request: { ...live, channel_id: 'c2' } })).toBe(
      REJECTED + 'network participation patch rejected: cannot change live channel strategy or identity',
    );
    expect(participationNoWidening({ request: live }, { request: { ...live, channel_strategy: 'run' } })).toContain(
      'cannot change live channel strategy or identity',
    );
  });

  it('accepts tighter bounds and refuses looser ones', () => {
    const tighter = { ...live, bounds: { max_wakes: 3, max_total_wall_time: '5m', coalesce_window: '2s' } };
    expect(participationNoWidening({ request: live }, { request: tighter })).toBeUndefined();
    const more = { ...live, bounds: { ...live.bounds, max_wakes: 6 } };
    expect(participationNoWidening({ request: live }, { request: more })).toBe(
      REJECTED + 'network participation patch rejected: bound max_wakes cannot increase from 5 to 6',
    );
    const longer = { ...live, bounds: { ...live.bounds, max_total_wall_time: '1h' } };
    expect(participationNoWidening({ request: live }, { request: longer })).toContain(
      'bound max_total_wall_time cannot increase from 10m to 1h',
    );
    const shorterWindow = { ...live, bounds: { ...live.bounds, coalesce_window: '500ms' } };
    expect(participationNoWidening({ request: live }, { request: shorterWindow })).toContain(
      'bound coalesce_window cannot decrease from 1s to 500ms',
    );
    const dropped = { ...live, bounds: { max_total_wall_time: '10m', coalesce_window: '1s' } };
    expect(participationNoWidening({ request: live }, { request: dropped })).toContain(
      'cannot add or remove bound max_wakes',
    );
    expect(participationNoWidening({ request: live }, { request: { ...live, bounds: undefined } })).toContain(
      'cannot add or remove live bounds without their resolved defaults',
    );
  });

  it('refuses an invalid mode', () => {
    expect(participationNoWidening({ request: live }, { request: { mode: 'global' } })).toContain(
      'invalid patched request: invalid mode "global"',
    );
  });
});

describe('checkGuard', () => {
  it('runs the named guard, and nothing for null', () => {
    expect(checkGuard('tool_id_immutable', { tool_id: 'a' }, { tool_id: 'b' })).toContain('immutable tool_id');
    expect(checkGuard(null, { tool_id: 'a' }, { tool_id: 'b' })).toBeUndefined();
  });
});
