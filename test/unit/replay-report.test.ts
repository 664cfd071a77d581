// What replay shows of an event (replay.md §6.1's label) and the JUnit document (§6.2): one
// redacted line of at most 120 characters, and XML that parses whatever a hook or payload held.
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { labelOf, type ReplayedEvent, type ReplayReport } from '../../src/app/replay.js';
import type { ReplayEvent } from '../../src/replay/model.js';
import { renderJunit } from '../../src/views/replay.js';

const event = (over: Partial<ReplayEvent>): ReplayEvent => ({
  session_id: 's1',
  seq: 1,
  event: 'PreToolUse',
  dialect: 'claude',
  tool_name: null,
  tool_use_id: null,
  agent_id: null,
  timestamp: null,
  source: { file: '/t/s1.jsonl', line: 1, kind: 'transcript' },
  sidechain: false,
  payload: {},
  old: { verdict: 'proceeded', basis: 'tool_result', reason: null, hooks: null },
  skills: [],
  ...over,
});

describe('replay labels', () => {
  it('names the call by its command, path, pattern or url, else the tool', () => {
    const tool = (tool_input: Record<string, unknown>) =>
      labelOf(event({ tool_name: 'T', payload: { tool_name: 'T', tool_input } }));
    expect(tool({ command: 'ls -la' })).toBe('T: ls -la');
    expect(tool({ file_path: '/w/a.ts', content: 'x' })).toBe('T: /w/a.ts');
    expect(tool({ pattern: '*.ts' })).toBe('T: *.ts');
    expect(tool({ title: 'x' })).toBe('T');
  });

  it("is the prompt's first line, redacted and cut to 120 characters", () => {
    const prompt = (p: string) => labelOf(event({ event: 'UserPromptSubmit', payload: { prompt: p } }));
    expect(prompt('first\nsecond')).toBe('first');
    expect(prompt('use token=abc123 please')).toBe('use token=[REDACTED] please');
    const long = prompt('x'.repeat(300));
    expect([...long]).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
    expect(labelOf(event({ event: 'SessionStart', payload: { source: 'resume' } }))).toBe('resume');
    expect(labelOf(event({ event: 'Stop', payload: {} }))).toBe('Stop');
  });
});

describe('replay JUnit', () => {
  it('escapes every value and replaces characters XML cannot hold', () => {
    const e: ReplayedEvent = {
      ...event({}),
      label: 'Bash: echo "<a & b>"\u0001',
      old: { verdict: 'proceeded', basis: 'tool_result', reason: null, hooks: null },
      new: { verdict: 'deny', reason: 'no <b>', runs: [], unevaluated: [], would_run: null, error: null },
      change: 'blocks',
      fired_now_only: null,
      fired_then_only: null,
      incomplete: false,
      redacted: false,
      failing: true,
    };
    const report = {
      replay: { dry_run: false },
      summary: {},
      inputs: [],
      events: [e],
      sessions: [{ session_id: 's1&"', file: '/t/<s1>.jsonl' }],
    } as unknown as ReplayReport;
    report.events[0]!.session_id = 's1&"';
    const xml = renderJunit(report);
    const names: string[] = [];
    const parser = new SaxesParser();
    parser.on('error', (err) => {
      throw err;
    });
    parser.on('opentag', (t) => names.push(`${t.name}:${String((t.attributes as Record<string, string>).name ?? '')}`));
    parser.write(xml).close();
    expect(names).toEqual([
      'testsuites:hookctl replay',
      'testsuite:s1&"',
      'testcase:#1 PreToolUse Bash: echo "<a & b>"\uFFFD',
      'failure:',
    ]);
  });
});
