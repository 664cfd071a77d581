// Rebuilding Claude Code events from transcripts (replay.md §3): the realistic fixture under
// test/fixtures/replay/shop (several tools, an MCP tool, a blocked call, a rejected call, a
// subagent, a torn last line, an unknown entry type) and small transcripts written per rule.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadFile, ReplayEvent } from '../../src/replay/model.js';
import { readTranscript, rebuildSession } from '../../src/replay/transcript.js';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const SHOP = join(repoRoot, 'test', 'fixtures', 'replay', 'shop');
const SID = '4b1e0c2a-7d9f-4c1e-9a55-0f6b8e2d1c3a';
const WITH_MODE = new Set(['UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop']);
const opts = { payloadFields: (e: string) => (WITH_MODE.has(e) ? ['permission_mode'] : []) };

async function shop(): Promise<ReadFile[]> {
  const main = join(SHOP, `${SID}.jsonl`);
  return rebuildSession(
    {
      main: await readTranscript(main, 'transcript'),
      subagents: [await readTranscript(join(SHOP, SID, 'subagents', 'agent-a1.jsonl'), 'subagent_transcript')],
      sessionId: SID,
      transcriptPath: main,
    },
    opts,
  );
}

const ordered = (files: ReadFile[]) => files.flatMap((f) => f.events).sort((a, b) => a.seq - b.seq);

/** Writes a main transcript of these entries (a string is written as it is) and rebuilds it. */
async function rebuild(
  entries: (Record<string, unknown> | string)[],
): Promise<{ files: ReadFile[]; events: ReplayEvent[] }> {
  const dir = tempDir('hookctl-replay-unit-');
  const file = join(dir, 's1.jsonl');
  writeFileSync(file, entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n');
  const files = await rebuildSession(
    { main: await readTranscript(file, 'transcript'), subagents: [], sessionId: 's1', transcriptPath: file },
    opts,
  );
  return { files, events: ordered(files) };
}

let clock = 0;
const ts = () => new Date(Date.UTC(2026, 7, 20, 9, 0, clock++)).toISOString();
const base = { sessionId: 's1', cwd: '/w', isSidechain: false };
const prompt = (text: string, more: Record<string, unknown> = {}) => ({
  ...base,
  type: 'user',
  timestamp: ts(),
  message: { role: 'user', content: text },
  ...more,
});
const call = (id: string, name: string, input: Record<string, unknown>) => ({
  ...base,
  type: 'assistant',
  timestamp: ts(),
  message: { role: 'assistant', model: 'claude-opus-5', content: [{ type: 'tool_use', id, name, input }] },
});
const result = (id: string, content: unknown, more: Record<string, unknown> = {}, isError = false) => ({
  ...base,
  type: 'user',
  timestamp: ts(),
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
  },
  ...more,
});
const say = (text: string, model = 'claude-opus-5') => ({
  ...base,
  type: 'assistant',
  timestamp: ts(),
  message: { role: 'assistant', model, content: [{ type: 'text', text }] },
});
const attachment = (a: Record<string, unknown>) => ({ ...base, type: 'attachment', timestamp: ts(), attachment: a });

describe('replay: the realistic transcript', () => {
  it('rebuilds the events Claude Code fired, in order, main and subagent', async () => {
    const events = ordered(await shop());
    expect(events.map((e) => `${e.seq} ${e.event} ${e.tool_use_id ?? ''}`.trim())).toEqual([
      '1 SessionStart',
      '2 UserPromptSubmit',
      '3 PreToolUse toolu_01',
      '4 PreToolUse toolu_02',
      '5 PostToolUse toolu_02',
      '6 PreToolUse toolu_04',
      '7 SubagentStart',
      '8 PreToolUse toolu_s1',
      '9 PostToolUse toolu_s1',
      '10 SubagentStop',
      '11 PostToolUse toolu_04',
      '12 Stop',
      '13 UserPromptSubmit',
      '14 PreToolUse toolu_05',
      '15 PostToolUseFailure toolu_05',
      '16 Stop',
    ]);
    // The Edit whose old_string was not in the file (toolu_03) was rejected before any hook ran.
    expect(events.some((e) => e.tool_use_id === 'toolu_03')).toBe(false);
  });

  it('reads what happened then from the hook traces and results', async () => {
    const events = ordered(await shop());
    const byseq = (n: number) => events.find((e) => e.seq === n)!;
    expect(byseq(3).old).toEqual({
      verdict: 'deny',
      basis: 'attachment',
      reason: '[.claude/hooks/no-rm.sh]: rm -rf is not allowed',
      hooks: ['.claude/hooks/no-rm.sh'],
    });
    expect(byseq(4).old).toEqual({ verdict: 'proceeded', basis: 'tool_result', reason: null, hooks: null });
    expect(byseq(12).old).toEqual({ verdict: 'proceeded', basis: 'transcript', reason: null, hooks: null });
    // toolu_01 was denied: no PostToolUse for it
    expect(events.filter((e) => e.tool_use_id === 'toolu_01').map((e) => e.event)).toEqual(['PreToolUse']);
  });

  it('gives the common fields as Claude Code sends them', async () => {
    const events = ordered(await shop());
    const main = join(SHOP, `${SID}.jsonl`);
    const pre = events.find((e) => e.tool_use_id === 'toolu_05' && e.event === 'PreToolUse')!;
    expect(pre.payload).toEqual({
      session_id: SID,
      transcript_path: main,
      cwd: '/home/ana/shop',
      hook_event_name: 'PreToolUse',
      prompt_id: 'p2',
      permission_mode: 'acceptEdits',
      tool_name: 'Bash',
      tool_input: { command: 'npm test', description: 'Run the tests' },
      tool_use_id: 'toolu_05',
    });
    const failure = events.find((e) => e.event === 'PostToolUseFailure')!;
    expect(failure.payload).toMatchObject({ error: 'Exit code 1\nFAIL src/a.test.ts', is_interrupt: false });
    const post = events.find((e) => e.event === 'PostToolUse' && e.tool_use_id === 'toolu_04')!;
    expect(post.payload.tool_response).toEqual({
      status: 'completed',
      content: [{ type: 'text', text: 'Looks good.' }],
    });
    const mcp = events.find((e) => e.event === 'PostToolUse' && e.tool_use_id === 'toolu_02')!;
    expect(mcp.payload.tool_response).toEqual([{ type: 'text', text: 'PR #12 opened' }]);
    const stop = events.find((e) => e.event === 'Stop')!;
    expect(stop.payload).toMatchObject({
      stop_hook_active: false,
      last_assistant_message: 'Opened PR #12.',
      background_tasks: [],
      session_crons: [],
    });
  });

  it('names subagent events by their agent and the main transcript', async () => {
    const events = ordered(await shop());
    const sub = events.filter((e) => e.sidechain);
    expect(sub.map((e) => e.event)).toEqual(['SubagentStart', 'PreToolUse', 'PostToolUse', 'SubagentStop']);
    for (const e of sub) {
      expect(e.payload).toMatchObject({
        agent_id: 'a1',
        agent_type: 'reviewer',
        transcript_path: join(SHOP, `${SID}.jsonl`),
      });
      expect(e.source.kind).toBe('subagent_transcript');
    }
    expect(sub[3]!.payload).toMatchObject({
      agent_transcript_path: join(SHOP, SID, 'subagents', 'agent-a1.jsonl'),
      last_assistant_message: 'Looks good.',
      stop_hook_active: false,
    });
    // the subagent's permission mode is the main transcript's at its time
    expect(sub[1]!.payload.permission_mode).toBe('default');
  });

  it('counts the torn last line and the unknown entry type, never failing', async () => {
    const [main] = await shop();
    expect(main!.input).toMatchObject({
      lines: 18,
      entries: 17,
      torn: 1,
      foreign: 0,
      skipped: { 'brand-new-entry': 1 },
    });
    expect(main!.warnings).toEqual([expect.stringMatching(/:18: not valid JSON; line skipped$/)]);
  });
});

describe('replay: transcript rules', () => {
  it('names the first five torn and foreign lines, then counts the rest', async () => {
    const bad = [
      ...Array.from({ length: 7 }, () => '{"type":"user","mess'),
      ...Array.from({ length: 6 }, () => '[1,2]'),
      '{"no":"type"}',
      '{"type":"user"}',
    ];
    const { files } = await rebuild([prompt('hi'), ...bad]);
    const f = files[0]!;
    expect([f.input.torn, f.input.foreign]).toEqual([7, 8]);
    expect(f.warnings.filter((w) => w.includes('not valid JSON'))).toHaveLength(5);
    expect(f.warnings.filter((w) => w.includes('not a Claude Code entry'))).toHaveLength(5);
    expect(f.warnings.at(-1)).toMatch(/: 5 more lines skipped$/);
  });

  it('rebuilds a blocked prompt from its system entry, with the hook of an exit 2', async () => {
    const { events } = await rebuild([
      {
        ...base,
        type: 'system',
        subtype: 'informational',
        timestamp: ts(),
        content:
          'UserPromptSubmit operation blocked by hook:\n[/h/guard.sh]: no secrets\n\nOriginal prompt: print the .env',
      },
    ]);
    const ups = events.find((e) => e.event === 'UserPromptSubmit')!;
    expect(ups.payload.prompt).toBe('print the .env');
    expect(ups.old).toEqual({
      verdict: 'block',
      basis: 'system',
      reason: '[/h/guard.sh]: no secrets',
      hooks: ['/h/guard.sh'],
    });
  });

  it('reads a stop entry after a prompt as stop, and a Stop feedback as block', async () => {
    const { events } = await rebuild([
      prompt('deploy'),
      prompt('Operation stopped by hook: frozen', { isMeta: true }),
      prompt('fix it'),
      say('done'),
      prompt('Stop hook feedback: tests fail', { isMeta: true }),
      say('fixed'),
    ]);
    const ups = events.filter((e) => e.event === 'UserPromptSubmit');
    expect(ups.map((e) => e.payload.prompt)).toEqual(['deploy', 'fix it']);
    expect(ups[0]!.old).toMatchObject({ verdict: 'stop', basis: 'feedback', reason: 'frozen' });
    const stops = events.filter((e) => e.event === 'Stop');
    expect(stops.map((e) => [e.old.verdict, e.old.basis, e.payload.stop_hook_active])).toEqual([
      ['block', 'feedback', false],
      ['proceeded', 'transcript', true],
    ]);
  });

  it('reads a stop_hook_summary that prevented continuation, and its hooks', async () => {
    const { events } = await rebuild([
      prompt('go'),
      say('ok'),
      {
        ...base,
        type: 'system',
        subtype: 'stop_hook_summary',
        timestamp: ts(),
        hookCount: 1,
        hookInfos: [{ command: '/h/stop.sh', durationMs: 3 }],
        preventedContinuation: true,
        stopReason: 'budget spent',
      },
    ]);
    expect(events.find((e) => e.event === 'Stop')!.old).toEqual({
      verdict: 'stop',
      basis: 'summary',
      reason: 'budget spent',
      hooks: ['/h/stop.sh'],
    });
  });

  it('gives refused calls no PostToolUse, interrupted ones a PostToolUseFailure with is_interrupt', async () => {
    const { events } = await rebuild([
      prompt('go'),
      call('t1', 'Bash', { command: 'rm x' }),
      result('t1', "The user doesn't want to proceed with this tool use.", { toolDenialKind: 'user-rejected' }, true),
      call('t2', 'Bash', { command: 'sleep 100' }),
      result('t2', '[Request interrupted by user for tool use]', { toolDenialKind: 'interrupted' }, true),
      call('t3', 'Write', { file_path: '/w/a' }),
      attachment({
        type: 'hook_permission_decision',
        decision: 'deny',
        toolUseID: 't3',
        hookEvent: 'PermissionRequest',
      }),
      result('t3', 'denied by a PermissionRequest hook', {}, true),
      call('t4', 'Bash', { command: 'git push' }),
      result('t4', 'Hook PreToolUse:Bash denied this tool', {}, true),
      call('t5', 'Bash', { command: 'make' }),
      result('t5', 'Execution stopped by PreToolUse hook: frozen', {}, true),
      call('t6', 'Bash', { command: 'pending' }),
    ]);
    const of = (id: string) => events.filter((e) => e.tool_use_id === id);
    expect(of('t1').map((e) => e.event)).toEqual(['PreToolUse']);
    expect(of('t2').map((e) => e.event)).toEqual(['PreToolUse', 'PostToolUseFailure']);
    expect(of('t2')[1]!.payload.is_interrupt).toBe(true);
    expect(of('t3').map((e) => e.event)).toEqual(['PreToolUse']);
    expect(of('t4').map((e) => [e.event, e.old.verdict, e.old.basis])).toEqual([['PreToolUse', 'deny', 'tool_result']]);
    expect(of('t5').map((e) => [e.event, e.old.verdict])).toEqual([['PreToolUse', 'stop']]);
    expect(of('t6').map((e) => [e.event, e.old.verdict, e.old.basis])).toEqual([['PreToolUse', 'unknown', 'none']]);
  });

  it('reads PostToolUse traces and a stopped continuation', async () => {
    const { events } = await rebuild([
      prompt('go'),
      call('t1', 'Write', { file_path: '/w/a' }),
      result('t1', 'ok', { toolUseResult: { type: 'create', filePath: '/w/a' } }),
      attachment({
        type: 'hook_blocking_error',
        hookEvent: 'PostToolUse',
        toolUseID: 't1',
        blockingError: { blockingError: 'lint failed', command: '/h/lint.sh' },
      }),
      call('t2', 'Bash', { command: 'ls' }),
      attachment({
        type: 'hook_stopped_continuation',
        hookEvent: 'PreToolUse',
        toolUseID: 't2',
        message: 'halt',
        command: '/h/halt.sh',
      }),
      result('t2', 'a b'),
    ]);
    const post = events.find((e) => e.event === 'PostToolUse' && e.tool_use_id === 't1')!;
    expect(post.old).toEqual({ verdict: 'block', basis: 'attachment', reason: 'lint failed', hooks: ['/h/lint.sh'] });
    expect(post.payload.tool_response).toEqual({ type: 'create', filePath: '/w/a' });
    const pre = events.find((e) => e.event === 'PreToolUse' && e.tool_use_id === 't2')!;
    expect(pre.old).toEqual({ verdict: 'stop', basis: 'attachment', reason: 'halt', hooks: ['/h/halt.sh'] });
  });

  it('makes no UserPromptSubmit for slash or ! commands, and activates the skills they and Skill name', async () => {
    const { events } = await rebuild([
      prompt('<command-message>review</command-message>\n<command-name>/review</command-name>'),
      prompt('<bash-input>ls</bash-input>'),
      call('t1', 'Bash', { command: 'ls' }),
      result('t1', 'a'),
      call('t2', 'Skill', { skill: 'deploy' }),
      result('t2', 'loaded'),
      call('t3', 'Bash', { command: 'make deploy' }),
      result('t3', 'ok'),
    ]);
    expect(events.some((e) => e.event === 'UserPromptSubmit')).toBe(false);
    const pre = (id: string) => events.find((e) => e.event === 'PreToolUse' && e.tool_use_id === id)!;
    expect(pre('t1').skills).toEqual(['review']);
    expect(pre('t2').skills).toEqual(['review']);
    expect(pre('t3').skills).toEqual(['review', 'deploy']);
  });

  it('makes one event of a tool_use id seen twice, and none for a synthetic message', async () => {
    const { events } = await rebuild([
      prompt('go'),
      call('t1', 'Bash', { command: 'ls' }),
      call('t1', 'Bash', { command: 'ls' }),
      result('t1', 'a'),
      say('API Error', '<synthetic>'),
    ]);
    expect(events.filter((e) => e.event === 'PreToolUse')).toHaveLength(1);
    expect(events.some((e) => e.event === 'Stop')).toBe(false);
  });

  it('rebuilds PreCompact and SessionStart compact from a compact boundary, and a resume', async () => {
    const { events } = await rebuild([
      prompt('go'),
      say('ok'),
      { ...base, type: 'system', subtype: 'compact_boundary', timestamp: ts(), compactMetadata: { trigger: 'manual' } },
      prompt('summary', { isCompactSummary: true }),
      {
        ...base,
        type: 'progress',
        timestamp: ts(),
        data: { type: 'hook_progress', hookEvent: 'SessionStart', hookName: 'SessionStart:resume', command: '/h/s.sh' },
      },
      prompt('again'),
    ]);
    expect(events.map((e) => `${e.event}${e.payload.source ? ':' + String(e.payload.source) : ''}`)).toEqual([
      'SessionStart:startup',
      'UserPromptSubmit',
      // no Stop: the entry after 'ok' is the compact summary, no prompt (replay.md §3.2)
      'PreCompact',
      'SessionStart:compact',
      'SessionStart:resume',
      'UserPromptSubmit',
    ]);
    expect(events.find((e) => e.event === 'PreCompact')!.payload).toMatchObject({
      trigger: 'manual',
      custom_instructions: '',
    });
    expect(events.find((e) => e.payload.source === 'resume')!.old).toEqual({
      verdict: 'proceeded',
      basis: 'progress',
      reason: null,
      hooks: ['/h/s.sh'],
    });
  });

  it('leaves agent_type out when the meta file is unreadable', async () => {
    const dir = tempDir('hookctl-replay-unit-');
    mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
    const sub = join(dir, 's1', 'subagents', 'agent-x.jsonl');
    writeFileSync(sub, JSON.stringify({ ...say('hi'), isSidechain: true, agentId: 'x' }) + '\n');
    writeFileSync(join(dir, 's1', 'subagents', 'agent-x.meta.json'), '{not json');
    const files = await rebuildSession(
      {
        main: undefined,
        subagents: [await readTranscript(sub, 'subagent_transcript')],
        sessionId: 's1',
        transcriptPath: join(dir, 's1.jsonl'),
      },
      opts,
    );
    const events = ordered(files);
    expect(events.map((e) => e.event)).toEqual(['SubagentStart', 'SubagentStop']);
    expect(events[0]!.payload.agent_id).toBe('x');
    expect('agent_type' in events[0]!.payload).toBe(false);
  });
});
