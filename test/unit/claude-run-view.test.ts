// Human output of claude fire and fire --dry-run (claude.md §6).
import { describe, expect, it } from 'vitest';
import { makeColour } from '../../src/cli/colour.js';
import type { ClaudeDispatchResult } from '../../src/dialects/claude/dispatch.js';
import type { ClaudePlanEntry } from '../../src/dialects/claude/plan.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { renderClaudeFire, renderClaudePlan } from '../../src/dialects/claude/fire-view.js';

const plain = makeColour(false);

const run = (over: Record<string, unknown>) =>
  ({
    hook_name: 'project:PreToolUse:1.1',
    mode: 'sync',
    outcome: 'applied',
    decision: null,
    duration_ms: 12,
    handler_type: 'command',
    why: null,
    ...over,
  }) as unknown as RunRecord;

describe('renderClaudeFire', () => {
  it('prints the verdict, reason and context, then Hook, Type, Outcome, Decision, Duration, Error', () => {
    const result = {
      event: 'PreToolUse',
      dialect: 'claude',
      session_id: 's',
      dispatch_id: 'd',
      verdict: 'deny',
      reason: 'no pushes',
      stop_reason: null,
      system_message: null,
      additional_context: 'line one\nline two',
      next_turn_context: null,
      outputs: { updatedInput: { command: 'ls' } },
      env_exports: [],
      payload: {},
      runs: [
        run({ outcome: 'denied', decision: 'deny' }),
        run({
          hook_name: 'plugin/x@m:PreToolUse:1.1',
          handler_type: 'http',
          outcome: 'failed',
          error: 'http status 500',
          duration_ms: 3,
        }),
        run({
          hook_name: 'project:PreToolUse:1.2',
          handler_type: 'prompt',
          outcome: 'skipped',
          why: 'prompt hooks run only inside Claude Code',
        }),
      ],
      notifications: [],
      unevaluated: [],
      error: null,
      warnings: [],
    } as ClaudeDispatchResult;
    expect(renderClaudeFire(result, plain).split('\n')).toEqual([
      'verdict  deny',
      'reason   no pushes',
      'context  line one',
      '         line two',
      'updatedInput {"command":"ls"}',
      'session s  dispatch d  event PreToolUse',
      '',
      'Hook                       Type     Outcome  Decision  Duration  Error',
      'project:PreToolUse:1.1     command  denied   deny      12 ms',
      'plugin/x@m:PreToolUse:1.1  http     failed             3 ms      http status 500',
      'project:PreToolUse:1.2     prompt   skipped                      prompt hooks run only inside Claude Code',
    ]);
  });
});

describe('renderClaudePlan', () => {
  it('prints Order, Name, Type, Matcher, Matched, If and Gate', () => {
    const plan: ClaudePlanEntry[] = [
      {
        name: 'project:PreToolUse:1.1',
        source: 'claude_project',
        mode: 'sync',
        handler_type: 'command',
        order: 1,
        status: 'active',
        matched: true,
        fields: [{ field: 'tool_name', pattern: 'Bash', value: 'Bash', matched: true }],
        if: { rule: 'Bash(git push *)', verdict: 'fail_open', why: 'the command could not be parsed as shell' },
        runnable: true,
      },
      {
        name: 'skill/project/deploy:PreToolUse:1.1',
        source: 'claude_skill',
        mode: 'sync',
        handler_type: 'prompt',
        order: 2,
        status: 'inactive',
        why: 'skill "deploy" is not selected (--skill deploy)',
        matched: false,
        fields: [],
        if: null,
        runnable: false,
      },
    ];
    expect(renderClaudePlan('PreToolUse', plan, plain).split('\n')).toEqual([
      'Order  Name                                 Type              Matcher                     Matched  If                                                                      Gate',
      '1      project:PreToolUse:1.1               command           tool_name "Bash" vs "Bash"  yes      Bash(git push *): fail open (the command could not be parsed as shell)  active',
      '2      skill/project/deploy:PreToolUse:1.1  prompt (not run)  (none)                      no                                                                               inactive: skill "deploy" is not selected (--skill deploy)',
    ]);
    expect(renderClaudePlan('Stop', [], plain)).toBe('No hooks declared for Stop.');
  });
});
