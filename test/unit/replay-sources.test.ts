// Where replay's inputs are (replay.md §2.1, §2.4), how decisions compare (§5), and what a
// label or stored copy hides (§2.2).
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeOf, firingDiff, parseFailOn } from '../../src/replay/compare.js';
import { redactText, redactValue } from '../../src/replay/redact.js';
import {
  claudeConfigDir,
  folderTranscripts,
  javaHash,
  projectDirName,
  sniffKind,
  workspaceProjectDir,
} from '../../src/replay/sources.js';
import { tempDir } from '../support/temp.js';

describe('replay sources: the project folder', () => {
  it('replaces each UTF-16 unit outside [A-Za-z0-9] with -, without collapsing', () => {
    expect(projectDirName('/home/ana/shop')).toBe('-home-ana-shop');
    expect(projectDirName('/tmp/a..b_c')).toBe('-tmp-a--b-c');
    expect(projectDirName('/tmp/\u{1F600}x')).toBe('-tmp---x');
  });

  it('cuts a long name to 200 characters, -, and the base-36 Java hash of the path', () => {
    const path = '/' + 'a'.repeat(250);
    const name = projectDirName(path);
    expect(name).toBe(`-${'a'.repeat(199)}-${Math.abs(javaHash(path)).toString(36)}`);
    expect(javaHash('hello')).toBe(99162322); // Java's "hello".hashCode()
  });

  it('uses CLAUDE_CONFIG_DIR, else ~/.claude, else the legacy ~/.config/claude with projects/', () => {
    const home = tempDir('hookctl-replay-home-');
    expect(claudeConfigDir({ HOME: home, CLAUDE_CONFIG_DIR: join(home, 'cc') })).toBe(join(home, 'cc'));
    expect(claudeConfigDir({ HOME: home })).toBe(join(home, '.claude'));
    mkdirSync(join(home, '.config', 'claude', 'projects'), { recursive: true });
    expect(claudeConfigDir({ HOME: home })).toBe(join(home, '.config', 'claude'));
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    expect(claudeConfigDir({ HOME: home })).toBe(join(home, '.claude'));
  });

  it('honours CLAUDE_CODE_PROJECT_DIR_NAME only beside CLAUDE_CONFIG_DIR', () => {
    const cc = tempDir('hookctl-replay-cc-');
    mkdirSync(join(cc, 'projects', 'mine'), { recursive: true });
    mkdirSync(join(cc, 'projects', '-w'), { recursive: true });
    expect(workspaceProjectDir('/w', { CLAUDE_CONFIG_DIR: cc, CLAUDE_CODE_PROJECT_DIR_NAME: 'mine' }).dir).toBe(
      join(cc, 'projects', 'mine'),
    );
    expect(workspaceProjectDir('/w', { CLAUDE_CONFIG_DIR: cc, CLAUDE_CODE_PROJECT_DIR_NAME: 'bad name!' }).dir).toBe(
      join(cc, 'projects', '-w'),
    );
    expect(workspaceProjectDir('/w', { HOME: cc, CLAUDE_CODE_PROJECT_DIR_NAME: 'mine' }).dir).toBeUndefined();
  });

  it("finds a long path's folder written by the native CLI by its first 200 characters", () => {
    const cc = tempDir('hookctl-replay-cc-');
    const path = '/' + 'b'.repeat(250);
    const prefix = projectDirName(path).slice(0, 200);
    mkdirSync(join(cc, 'projects', `${prefix}-zz9`), { recursive: true });
    mkdirSync(join(cc, 'projects', `${prefix}-zz8x`), { recursive: true });
    expect(workspaceProjectDir(path, { CLAUDE_CONFIG_DIR: cc }).dir).toBe(join(cc, 'projects', `${prefix}-zz8x`));
  });

  it("tries the workspace's real path when the given one has no folder", () => {
    const cc = tempDir('hookctl-replay-cc-');
    const real = tempDir('hookctl-replay-real-');
    const link = join(tempDir('hookctl-replay-link-'), 'ws');
    symlinkSync(real, link);
    mkdirSync(join(cc, 'projects', projectDirName(realpathSync(real))), { recursive: true });
    expect(workspaceProjectDir(link, { CLAUDE_CONFIG_DIR: cc }).dir).toBe(
      join(cc, 'projects', projectDirName(realpathSync(real))),
    );
  });

  it('lists main transcripts, their subagents at any depth, and flat agent files; nothing else', () => {
    const dir = tempDir('hookctl-replay-proj-');
    for (const f of ['s1.jsonl', 'agent-old.jsonl', 's1.meta.json']) writeFileSync(join(dir, f), '{}\n');
    mkdirSync(join(dir, 's1', 'subagents', 'workflows', 'wf_1'), { recursive: true });
    mkdirSync(join(dir, 's1', 'tool-results'), { recursive: true });
    writeFileSync(join(dir, 's1', 'subagents', 'agent-a.jsonl'), '{}\n');
    writeFileSync(join(dir, 's1', 'subagents', 'agent-a.meta.json'), '{}\n');
    writeFileSync(join(dir, 's1', 'subagents', 'workflows', 'wf_1', 'agent-b.jsonl'), '{}\n');
    writeFileSync(join(dir, 's1', 'tool-results', 'x.jsonl'), '{}\n');
    const t = folderTranscripts(dir);
    expect(t.main).toEqual([join(dir, 's1.jsonl')]);
    expect(t.flatAgents).toEqual([join(dir, 'agent-old.jsonl')]);
    expect(t.subagents.get(join(dir, 's1.jsonl'))).toEqual([
      join(dir, 's1', 'subagents', 'agent-a.jsonl'),
      join(dir, 's1', 'subagents', 'workflows', 'wf_1', 'agent-b.jsonl'),
    ]);
  });

  it("tells a file's kind by its first line that parses as an object", async () => {
    const dir = tempDir('hookctl-replay-kind-');
    const write = (n: string, text: string) => {
      writeFileSync(join(dir, n), text);
      return join(dir, n);
    };
    expect(await sniffKind(write('a.jsonl', 'torn{\n[1]\n{"event":"Stop","payload":{}}\n'))).toBe('events');
    expect(await sniffKind(write('b.jsonl', '{"dispatch_id":"d","payload":null}\n'))).toBe('payloads');
    expect(await sniffKind(write('c.jsonl', '{"type":"user","message":{}}\n'))).toBe('transcript');
  });
});

describe('replay compare', () => {
  it('classifies changes as §5 says', () => {
    expect(changeOf('proceeded', 'deny')).toBe('blocks');
    expect(changeOf('ask', 'block')).toBe('blocks');
    expect(changeOf('proceeded', 'ask')).toBe('asks');
    expect(changeOf('deny', 'defer')).toBe('asks');
    expect(changeOf('deny', 'pass')).toBe('allows');
    expect(changeOf('ask', 'allow')).toBe('allows');
    expect(changeOf('allow', 'pass')).toBe('differs');
    expect(changeOf('deny', 'block')).toBe('differs');
    expect(changeOf('completed', 'failed')).toBe('differs');
    expect(changeOf('proceeded', 'pass')).toBeNull();
    expect(changeOf('proceeded', 'allow')).toBeNull();
    expect(changeOf('deny', 'deny')).toBeNull();
    expect(changeOf('unknown', 'deny')).toBeNull();
    expect(changeOf('proceeded', null)).toBeNull();
  });

  it('lists the hooks that fired only now or only then, null without a record', () => {
    expect(firingDiff(null, ['a'])).toEqual({ fired_now_only: null, fired_then_only: null });
    expect(firingDiff(['a', 'b'], ['b', 'c'])).toEqual({ fired_now_only: ['c'], fired_then_only: ['a'] });
  });

  it('parses --fail-on', () => {
    expect(parseFailOn(undefined)).toEqual(['blocks', 'asks', 'allows', 'differs']);
    expect(parseFailOn('none')).toEqual([]);
    expect(parseFailOn('blocks,fired')).toEqual(['blocks', 'fired']);
    expect(parseFailOn('blocks,nope')).toBeUndefined();
    expect(parseFailOn('')).toBeUndefined();
  });
});

describe('replay redaction', () => {
  it('replaces token shapes and assigned secrets in strings', () => {
    const jwt = 'eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJlX3g';
    expect(redactText(`curl -H "Authorization: Bearer abcdefghijklmnop1234" ${jwt}`)).toBe(
      'curl -H "Authorization: Bearer [REDACTED]" [REDACTED]',
    );
    expect(redactText('export OPENAI=sk-abcdefghijklmnopqrstuvwx')).toBe('export OPENAI=[REDACTED]');
    expect(redactText('AKIAABCDEFGHIJKLMNOP ghp_' + 'a'.repeat(36))).toBe('[REDACTED] [REDACTED]');
    expect(redactText('mysql --password=hunter2 -u root')).toBe('mysql --password=[REDACTED] -u root');
    expect(redactText('xoxb-1234567890-abc')).toBe('[REDACTED]');
    expect(redactText('ls -la src')).toBe('ls -la src');
  });

  it('replaces the value of a secret-like key whatever its type, with the pointers', () => {
    const r = redactValue({ tool_input: { command: 'echo token=abc123', api_token: { a: 1 } }, n: 1 });
    expect(r.value).toEqual({ tool_input: { command: 'echo token=[REDACTED]', api_token: '[REDACTED]' }, n: 1 });
    expect(r.pointers).toEqual(['/tool_input/command', '/tool_input/api_token']);
  });
});
