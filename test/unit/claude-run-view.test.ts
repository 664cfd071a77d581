// Human output of claude fire and fire --dry-run (claude.md §6).
import { describe, expect, it } from 'vitest';
import { makeColour } from '../../src/cli/colour.js';
import type { ClaudeDispatchResult } from '../../src/dialects/claude/dispatch/dispatch.js';
import type { ClaudePlanEntry } from '../../src/dialects/claude/dispatch/plan.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { claudeFireReport, claudePlanTable } from '../../src/dialects/claude/dispatch/fire-report.js';
import { renderDryRun, renderFireReport, renderReportTable } from '../../src/views/fire.js';

// The dialect says what to show (data); the shared view paints and fits it.
const renderClaudeFire = (result: ClaudeDispatchResult, colour: typeof plain) =>
  renderFireReport(claudeFireReport(result), colour);
const renderClaudePlan = (_event: string, plan: ClaudePlanEntry[], colour: typeof plain) =>
  renderReportTable(claudePlanTable(plan), colour);

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
      mods: [],
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

describe('renderClaudeFire notices', () => {
  const result = (notifications: ClaudeDispatchResult['notifications']) =>
    ({
      event: 'PreToolUse',
      dialect: 'claude',
      session_id: 's',
      dispatch_id: 'd',
      verdict: 'pass',
      reason: null,
      stop_reason: null,
      system_message: 'be careful',
      additional_context: null,
      next_turn_context: null,
      outputs: {},
      env_exports: [],
      payload: {},
      runs: [run({ outcome: 'failed', error: 'hook command failed: exit status 1' })],
      notifications,
      unevaluated: [],
      error: null,
      warnings: [],
    }) as unknown as ClaudeDispatchResult;
  const note = (kind: 'system_message' | 'hook_error' | 'timeout', message: string) => ({
    type: 'stream_event' as const,
    event: {
      subtype: 'hook_notification' as const,
      hook_name: 'project:PreToolUse:1.1',
      kind,
      message,
      decision: null,
    },
  });

  it('shows each hook_error and timeout notice with its hook, and that only exit 2 blocks', () => {
    const lines = renderClaudeFire(
      result([
        note('system_message', 'be careful'),
        note('hook_error', 'Failed with non-blocking status code: guard: no config'),
        note('timeout', 'project:PreToolUse:1.1 timed out after 5s'),
      ]),
      plain,
    ).split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'verdict  pass',
      'message  be careful',
      'notice   Failed with non-blocking status code: guard: no config  (project:PreToolUse:1.1)',
      'notice   project:PreToolUse:1.1 timed out after 5s',
      'hint     only exit 2 blocks: another exit code is a non-blocking error, and Claude goes on',
      'session s  dispatch d  event PreToolUse',
    ]);
  });

  it('an exit-2 notice (of an event that cannot block) gets no hint; no notices, no lines', () => {
    const lines = renderClaudeFire(result([note('hook_error', 'stderr of the hook')]), plain).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'verdict  pass',
      'message  be careful',
      'notice   stderr of the hook  (project:PreToolUse:1.1)',
      'session s  dispatch d  event PreToolUse',
    ]);
    expect(renderClaudeFire(result([]), plain)).not.toMatch(/notice|hint/);
  });
});

describe('renderClaudePlan', () => {
  it('prints Order, Name, Type, Matcher, Matched, If and Gate', async () => {
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
    expect(await renderDryRun({ event: 'Stop', dialect: 'claude', plan: [] }, plain)).toMatch(
      /\nNo hooks declared for Stop\.$/,
    );
  });
});
