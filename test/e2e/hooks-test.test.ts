// `hooks test` end to end (SPEC §8): the built CLI runs test files against a copy of the demo
// tree — real hook scripts, real compozy and cosh rules. Every expectation key passing and
// failing, every format (JUnit parsed as XML), isolation from the user's ledger, two runs at
// once, bad test files with file:line:col, and a --init file that passes as written.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoDir, isolatedEnv, runCli, type CliResult } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

let root: string;
let env: Record<string, string>;
let sessionsDirs: string[];

beforeAll(() => {
  root = tempDir('hookctl-hooktest-e2e-');
  cpSync(demoDir, join(root, 'demo'), { recursive: true });
  for (const d of ['home/.compozy/sessions', 'home/.copilot-shell/sessions'])
    rmSync(join(root, 'demo', d), { recursive: true, force: true });
  mkdirSync(join(root, 'tmp'));
  env = {
    ...isolatedEnv({
      home: join(root, 'user'),
      compozyHome: join(root, 'demo/home/.compozy'),
      coshHome: join(root, 'demo/home/.copilot-shell'),
      systemRoot: join(root, 'demo/system'),
    }),
    TMPDIR: join(root, 'tmp'), // the demo's async hooks append to $TMPDIR/hookctl-demo.log
    HOOKCTL_STATE_DIR: join(root, 'state'),
    CLAUDE_CONFIG_DIR: join(root, 'user/.claude'),
  };
  sessionsDirs = [
    join(root, 'demo/home/.compozy/sessions'),
    join(root, 'demo/home/.copilot-shell/sessions'),
    join(root, 'state'),
  ];
  // A workspace whose required tool gate always fails: the dispatch fails (exit 3).
  mkdirSync(join(root, 'failing/.compozy'), { recursive: true });
  writeFileSync(
    join(root, 'failing/.compozy/config.toml'),
    '[[hooks.declarations]]\nname = "always-fails"\nevent = "tool.pre_call"\nmode = "sync"\nrequired = true\ncommand = "false"\n',
  );
});

const ws = () => ['--workspace', join(root, 'demo/workspace'), '--additional-dir', join(root, 'demo/extra')];

function write(name: string, text: string): string {
  const file = join(root, 'tests', name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function hooksTest(args: string[]): Promise<CliResult> {
  return runCli(['hooks', 'test', ...args], { env, cwd: root, timeoutMs: 60_000 });
}

interface JsonCase {
  name: string;
  status: string;
  line: number;
  failures: { expectation: string; message: string; expected: unknown; actual: unknown; differences?: unknown[] }[];
  error: string | null;
}
interface JsonReport {
  passed: number;
  failed: number;
  bailed: boolean;
  cases: JsonCase[];
}

async function jsonRun(args: string[]): Promise<{ res: CliResult; report: JsonReport }> {
  const res = await hooksTest([...args, '--format', 'json']);
  if (res.stdout === '') throw new Error(`no report (exit ${res.code}): ${res.stderr}`);
  return { res, report: JSON.parse(res.stdout) as JsonReport };
}

/** Files in the user's sessions folders (the demo copy's homes, the claude state dir). */
function userLedgerFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  sessionsDirs.forEach(walk);
  return out;
}

const DEMO = () => join(root, 'demo/workspace/tests/demo.hooktest.yaml');

describe('hooks test on the demo', () => {
  it('runs the demo test file, found in the workspace with no PATH, and every case passes', async () => {
    const res = await hooksTest(ws());
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^demo hooks {2}demo\/workspace\/tests\/demo\.hooktest\.yaml$/);
    expect(lines.filter((l) => /^ {2}✓ .+ \d+ ms$/.test(l))).toHaveLength(8);
    expect(lines.at(-1)).toBe('8 passed, 0 failed');
    expect(userLedgerFiles()).toEqual([]);
  });
});

describe('every expectation key', () => {
  const PASSING = [
    'workspace: ../demo/workspace',
    'cases:',
    '  - name: verdict exit_code reason ran outcomes payload max_duration_ms',
    '    event: tool.pre_call',
    '    payload: { tool_id: compozy__fs_write, read_only: false, tool_input: { path: .env } }',
    '    expect:',
    '      verdict: denied',
    '      exit_code: 1',
    '      reason: Protected secret file path.',
    '      ran: [block-secret-file-edits]',
    '      outcomes: { block-secret-file-edits: denied }',
    '      payload: { tool_input: { path: .env }, read_only: false }',
    '      max_duration_ms: 10000',
    '  - name: reason as a regex, context',
    '    event: SessionStart',
    '    payload: { source: startup }',
    '    expect: { verdict: pass, exit_code: 0, context: /^Project demo-shop/, outcomes: { context-loader: applied } }',
    '  - name: cosh reason regex',
    '    event: PreToolUse',
    '    payload: { tool_name: shell, tool_input: { command: rm -rf /tmp/x } }',
    '    expect: { verdict: block, reason: /dangerous/i, ran: [security-check], not_ran: [shell-audit] }',
    '  - name: hooks selects the hooks that run',
    '    event: prompt.post_assemble',
    '    hooks: [workspace-context]',
    '    payload: { prompt: p, input_class: user, agent_name: reviewer }',
    '    expect: { ran: [workspace-context], not_ran: [prompt-style, add-review-context] }',
    '  - name: a dry run lists what would run, in order',
    '    event: prompt.post_assemble',
    '    dry_run: true',
    '    payload: { prompt: p, input_class: user, agent_name: reviewer }',
    '    expect: { ran: [prompt-style, workspace-context, add-review-context], not_ran: [add-plan-context] }',
    '  - name: no expect passes when the dispatch did not fail',
    '    event: tool.pre_call',
    '    payload: { tool_id: compozy__fs_write, read_only: false, tool_input: { path: .env } }',
    '',
  ].join('\n');

  const FAILING = [
    'workspace: ../demo/workspace',
    'cases:',
    '  - name: every compozy key wrong',
    '    event: tool.pre_call',
    '    payload: { tool_id: compozy__fs_write, read_only: false, tool_input: { path: .env } }',
    '    expect:',
    '      verdict: completed',
    '      exit_code: 0',
    '      reason: /^nope$/',
    '      ran: []',
    '      not_ran: [block-secret-file-edits]',
    '      outcomes: { block-secret-file-edits: applied }',
    '      payload: { tool_input: { path: README.md }, missing: 1 }',
    '      max_duration_ms: 0',
    '  - name: context wrong',
    '    event: SessionStart',
    '    payload: { source: startup }',
    '    expect: { context: exact other text }',
    '  - name: ran in the wrong order',
    '    event: prompt.post_assemble',
    '    dry_run: true',
    '    payload: { prompt: p, input_class: user, agent_name: reviewer }',
    '    expect: { ran: [workspace-context, prompt-style, add-review-context], not_ran: [workspace-context] }',
    '  - name: no expect, the dispatch completed',
    '    event: tool.pre_call',
    '    payload: { tool_id: t, read_only: false }',
    '  - name: the last case',
    '    event: SessionStart',
    '',
  ].join('\n');

  it('all pass when met (exit 0)', async () => {
    const { res, report } = await jsonRun([write('passing.hooktest.yaml', PASSING)]);
    expect(res.code, res.stdout).toBe(0);
    expect(report.cases.map((c) => [c.name, c.status, c.failures])).toEqual(
      report.cases.map((c) => [c.name, 'passed', []]),
    );
    expect(report).toMatchObject({ passed: 6, failed: 0 });
  });

  it('each fails with expected and actual when unmet (exit 1)', async () => {
    const failing = write('failing.hooktest.yaml', FAILING);
    const dispatchFails = write(
      'dispatch-fails.hooktest.yaml',
      [
        'workspace: ../failing',
        'cases:',
        '  - name: a required hook fails',
        '    event: tool.pre_call',
        '    payload: { tool_id: t, read_only: false }',
        '',
      ].join('\n'),
    );
    const { res, report } = await jsonRun([failing, dispatchFails]);
    expect(res.code, res.stderr).toBe(1);
    const byName = Object.fromEntries(report.cases.map((c) => [c.name, c]));
    const first = byName['every compozy key wrong']!;
    expect(first.status).toBe('failed');
    expect(first.line).toBe(3);
    expect(first.failures.map((f) => f.expectation)).toEqual([
      'verdict',
      'exit_code',
      'reason',
      'ran',
      'not_ran',
      'outcomes.block-secret-file-edits',
      'payload',
      'max_duration_ms',
    ]);
    const f = Object.fromEntries(first.failures.map((x) => [x.expectation, x]));
    expect(f.verdict).toMatchObject({
      expected: 'completed',
      actual: 'denied',
      message: 'verdict: expected "completed", got "denied"',
    });
    expect(f.exit_code).toMatchObject({ expected: 0, actual: 1 });
    expect(f.reason).toMatchObject({ expected: '/^nope$/', actual: 'Protected secret file path.' });
    expect(f.ran).toMatchObject({ expected: [], actual: ['block-secret-file-edits'] });
    expect(f['outcomes.block-secret-file-edits']).toMatchObject({ expected: 'applied', actual: 'denied' });
    expect(f.payload!.differences).toEqual([
      { path: 'tool_input.path', expected: 'README.md', actual: '.env', absent: false },
      { path: 'missing', expected: 1, actual: null, absent: true },
    ]);
    expect(f.max_duration_ms!.message).toMatch(
      /^max_duration_ms: expected at most 0 ms, block-secret-file-edits took \d+ ms$/,
    );
    expect(byName['context wrong']!.failures).toMatchObject([
      {
        expectation: 'context',
        expected: '"exact other text"',
        actual: 'Project demo-shop: TypeScript web shop. Run npm test before you commit.',
      },
    ]);
    expect(byName['ran in the wrong order']!.failures.map((x) => x.message)).toEqual([
      'ran: expected [workspace-context, prompt-style, add-review-context] (in this order), would run [prompt-style, workspace-context, add-review-context]',
      'not_ran: [workspace-context] would run (would run: [prompt-style, workspace-context, add-review-context])',
    ]);
    // block-secret-file-edits denies nothing here, so this dispatch completes: no expect, passes.
    expect(byName['no expect, the dispatch completed']!.status).toBe('passed');
    expect(byName['a required hook fails']!.failures).toMatchObject([{ expectation: 'dispatch' }]);
    expect(byName['a required hook fails']!.failures[0]!.message).toMatch(/^dispatch failed: /);
    expect(byName['the last case']!.status).toBe('passed');
    expect(report).toMatchObject({ passed: 2, failed: 4 });
    expect(userLedgerFiles()).toEqual([]);
  });

  it('human output shows each unmet expectation and the payload diff, then "N passed, N failed"', async () => {
    const res = await hooksTest([write('failing-human.hooktest.yaml', FAILING), '--filter', 'compozy']);
    expect(res.code).toBe(1);
    const out = res.stdout;
    expect(out).toMatch(/^ {2}✗ every compozy key wrong {2}compozy · \d+ ms$/m);
    expect(out).toContain('      verdict: expected "completed", got "denied"\n');
    expect(out).toContain('        tool_input.path\n          - expected "README.md"\n          + actual   ".env"\n');
    expect(out).toContain('        missing\n          - expected 1\n          + actual   absent\n');
    expect(out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });

  it('--bail stops at the first failure; --filter runs the cases whose name contains the text', async () => {
    const file = write('bail.hooktest.yaml', FAILING);
    const { res, report } = await jsonRun([file, '--bail']);
    expect(res.code).toBe(1);
    expect(report.cases.map((c) => c.name)).toEqual(['every compozy key wrong']);
    expect(report.bailed).toBe(true);
    const filtered = await jsonRun([file, '--filter', 'last']);
    expect(filtered.res.code).toBe(0);
    expect(filtered.report.cases.map((c) => c.name)).toEqual(['the last case']);
  });

  it('ran lists the sync chain before the async hooks, in the report and in what ran: compares', async () => {
    // Dispatch order puts the async hook first (priority 900); it is queued after the chain ends.
    const dir = join(root, 'run-order');
    mkdirSync(join(dir, '.compozy'), { recursive: true });
    writeFileSync(
      join(dir, '.compozy/config.toml'),
      [
        '[[hooks.declarations]]',
        'name = "audit-later"',
        'event = "tool.post_call"',
        'mode = "async"',
        'priority = 900',
        'command = "true"',
        '',
        '[[hooks.declarations]]',
        'name = "check-now"',
        'event = "tool.post_call"',
        'mode = "sync"',
        'priority = 100',
        'command = "true"',
        '',
      ].join('\n'),
    );
    const file = write(
      'run-order.hooktest.yaml',
      [
        'workspace: ../run-order',
        '# only these two: the demo home (COMPOZY_HOME) has tool.post_call hooks too',
        'cases:',
        '  - name: as they ran',
        '    event: tool.post_call',
        '    hooks: [audit-later, check-now]',
        '    expect: { ran: [check-now, audit-later] }',
        '  - name: in dispatch order',
        '    event: tool.post_call',
        '    hooks: [audit-later, check-now]',
        '    expect: { ran: [audit-later, check-now] }',
        '  - name: as they would run',
        '    event: tool.post_call',
        '    hooks: [audit-later, check-now]',
        '    dry_run: true',
        '    expect: { ran: [check-now, audit-later] }',
        '',
      ].join('\n'),
    );
    const { res, report } = await jsonRun([file]);
    expect(res.code).toBe(1);
    expect(report.cases.map((c) => [c.name, c.status])).toEqual([
      ['as they ran', 'passed'],
      ['in dispatch order', 'failed'],
      ['as they would run', 'passed'],
    ]);
    expect(report.cases[1]!.failures).toEqual([
      expect.objectContaining({ expectation: 'ran', actual: ['check-now', 'audit-later'] }),
    ]);
  });

  it('no test file or no case selected: exit 2 with a message, unless --pass-with-no-tests', async () => {
    const file = write('filtered-out.hooktest.yaml', FAILING);
    const none = await hooksTest([file, '--filter', 'no such case']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      'hookctl: no test case of 1 test file matches --filter "no such case"; pass --pass-with-no-tests to exit 0\n',
    );
    const passed = await hooksTest([file, '--filter', 'no such case', '--pass-with-no-tests']);
    expect(passed.code, passed.stderr).toBe(0);
    expect(passed.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 0 failed');

    const empty = join(root, 'no-tests-here');
    mkdirSync(empty, { recursive: true });
    write('../no-tests-here/notes.yaml', 'cases: []\n'); // not a test file name
    for (const args of [['no-tests-here'], ['--workspace', empty]]) {
      const r = await hooksTest(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        'hookctl: no test files (*.hooktest.yaml, *.hooktest.yml, *.hooktest.json) found in "no-tests-here"; pass --pass-with-no-tests to exit 0\n',
      );
      const json = await hooksTest([...args, '-o', 'json']);
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'no_test_files' } });
      const ok = await hooksTest([...args, '--pass-with-no-tests', '--format', 'json']);
      expect(ok.code, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ files: [], cases: [], passed: 0, failed: 0 });
    }
    // A test file with no case at all is no test either.
    const noCases = write('no-cases.hooktest.yaml', 'cases: []\n');
    const r = await hooksTest([noCases]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('hookctl: no test cases in 1 test file; pass --pass-with-no-tests to exit 0\n');
  });
});

describe('formats', () => {
  const MIXED = [
    'name: mixed & <formats>',
    'workspace: ../demo/workspace',
    'cases:',
    '  - name: passes',
    '    event: SessionStart',
    '    expect: { verdict: pass }',
    '  - name: fails "quoted" <b>',
    '    event: tool.pre_call',
    '    payload: { tool_id: x, read_only: false, tool_input: { path: .env } }',
    '    expect: { verdict: completed, payload: { tool_input: { path: x } } }',
    '',
  ].join('\n');

  it('junit: valid XML with a testsuite, a testcase per case with file and line, a failure', async () => {
    const file = write('mixed.hooktest.yaml', MIXED);
    const res = await hooksTest([file, '--format', 'junit']);
    expect(res.code).toBe(1);
    const events: { name: string; attributes: Record<string, string> }[] = [];
    const failures: string[] = [];
    let inFailure = false;
    const parser = new SaxesParser();
    parser.on('error', (e) => {
      throw e;
    });
    parser.on('opentag', (t) => {
      events.push({ name: t.name, attributes: t.attributes as Record<string, string> });
      inFailure = t.name === 'failure';
    });
    parser.on('text', (t) => {
      if (inFailure) failures.push(t);
    });
    parser.on('closetag', () => (inFailure = false));
    parser.write(res.stdout).close();
    expect(events.map((e) => e.name)).toEqual(['testsuites', 'testsuite', 'testcase', 'testcase', 'failure']);
    expect(events[0]!.attributes).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    expect(events[1]!.attributes).toMatchObject({
      name: 'mixed & <formats>',
      tests: '2',
      failures: '1',
      file: 'tests/mixed.hooktest.yaml',
    });
    expect(events[3]!.attributes).toMatchObject({
      name: 'fails "quoted" <b>',
      classname: 'mixed & <formats>',
      line: '7',
    });
    expect(failures.join('')).toContain('verdict: expected "completed", got "denied"');
  });

  it('tap, github and json', async () => {
    const file = write('mixed.hooktest.yaml', MIXED);
    const [tap, github, json] = await Promise.all([
      hooksTest([file, '--format', 'tap']),
      runCli(['hooks', 'test', file], { env: { ...env, GITHUB_ACTIONS: 'true' }, cwd: root }),
      hooksTest([file, '--json']),
    ]);
    expect(tap.stdout.split('\n').slice(0, 3)).toEqual([
      'TAP version 13',
      'ok 1 - mixed & <formats> > passes',
      'not ok 2 - mixed & <formats> > fails "quoted" <b>',
    ]);
    expect(tap.stdout).toContain('\n1..2\n');
    const annotations = github.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(
      /^::error file=tests\/mixed\.hooktest\.yaml,line=7,col=5,title=hooks test%3A fails "quoted" <b>::verdict: expected "completed", got "denied"%0A/,
    );
    expect(github.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
    expect(JSON.parse(json.stdout)).toMatchObject({ passed: 1, failed: 1 });
    const jsonl = await hooksTest([file, '-o', 'jsonl']);
    expect(
      jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(['passed', 'failed']);
    expect([tap.code, github.code, json.code]).toEqual([1, 1, 1]);
  });
});

describe("a test file's env", () => {
  it('reaches the hooks of its cases, and only of its own file', async () => {
    mkdirSync(join(root, 'envws/.copilot-shell'), { recursive: true });
    writeFileSync(
      join(root, 'envws/.copilot-shell/config.toml'),
      `[[hooks.Stop]]\nname = "policy-echo"\ncommand = '''\nprintf '{"decision":"block","reason":"policy=%s"}' "$POLICY"\n'''\n`,
    );
    const withEnv = write(
      'env/with.hooktest.yaml',
      'workspace: ../../envws\nenv: { POLICY: strict }\ncases:\n  - { name: sees it, event: Stop, expect: { verdict: block, reason: policy=strict } }\n',
    );
    const without = write(
      'env/without.hooktest.yaml',
      'workspace: ../../envws\ncases:\n  - { name: does not, event: Stop, expect: { reason: policy= } }\n',
    );
    const { res, report } = await jsonRun([withEnv, without]);
    expect(res.code, res.stdout).toBe(0);
    expect(report.passed).toBe(2);
  });

  it('--format github annotates a bad test file at its line', async () => {
    const bad = write('env/bad.hooktest.yaml', 'cases:\n  - name: a\n    event: Stop\n    expect: { ran: nope }\n');
    const res = runCli(['hooks', 'test', bad, '--format', 'github'], { env, cwd: root });
    const out = await res;
    expect(out.code).toBe(2);
    expect(out.stdout).toMatch(
      /^::error file=tests\/env\/bad\.hooktest\.yaml,line=4,col=\d+,title=schema_type::cases\[0\]\.expect\.ran: must be array, got string$/m,
    );
  });
});

// The claude dialect (its own issue) with its demo tree: runs once both are in the tree.
describe.runIf(existsSync(join(demoDir, 'claude')))('the claude dialect', () => {
  it('checks claude verdicts and exit codes, and keeps its records out of $HOOKCTL_STATE_DIR', async () => {
    const claudeEnv = {
      ...env,
      CLAUDE_CONFIG_DIR: join(root, 'demo/claude/home/.claude'),
      HOOKCTL_CLAUDE_MANAGED_DIR: join(root, 'demo/claude/managed'),
    };
    const file = write(
      'claude.hooktest.yaml',
      [
        'dialect: claude',
        'workspace: ../demo/claude/workspace',
        'cases:',
        '  - name: denies rm -rf',
        '    event: PreToolUse',
        '    payload: { tool_name: Bash, tool_input: { command: rm -rf build } }',
        '    expect: { verdict: deny, exit_code: 1, reason: /recursive rm/ }',
        '  - name: asks before a push',
        '    event: PreToolUse',
        '    payload: { tool_name: Bash, tool_input: { command: git push origin main } }',
        '    expect: { verdict: ask, exit_code: 4 }',
        '',
      ].join('\n'),
    );
    const res = await runCli(['hooks', 'test', file, '--format', 'json'], {
      env: claudeEnv,
      cwd: root,
      timeoutMs: 60_000,
    });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ passed: 2, failed: 0 });
    // The demo's own claude tests, found in its workspace.
    const demo = await runCli(
      ['hooks', 'test', '--workspace', join(root, 'demo/claude/workspace'), '--format', 'json'],
      {
        env: { ...claudeEnv, HOME: join(root, 'demo/claude/home') },
        cwd: root,
        timeoutMs: 60_000,
      },
    );
    expect(demo.code, demo.stdout + demo.stderr).toBe(0);
    expect(JSON.parse(demo.stdout)).toMatchObject({ passed: 6, failed: 0 });
    expect(userLedgerFiles()).toEqual([]);
  });
});

describe('isolation', () => {
  it('never writes the user ledger; two runs at once do not disturb each other', async () => {
    const before = userLedgerFiles();
    const runs = await Promise.all([hooksTest([DEMO(), '--format', 'json']), hooksTest([DEMO(), '--format', 'json'])]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ passed: 8, failed: 0 });
    }
    expect(userLedgerFiles()).toEqual(before);
    // Nothing left behind in the temp folder either (each case's ledger is removed).
    expect(
      readdirSync(join(root, 'tmp')).filter((n) => n !== 'hookctl-demo.log' && !n.startsWith('hookctl-compile')),
    ).toEqual([]);
  });
});

describe('bad test files: exit 2 with file:line:col, nothing runs', () => {
  it('a YAML syntax error, a schema error, a bad payload file', async () => {
    write('bad/syntax.hooktest.yaml', 'cases:\n  - name: a\n    event: [tool.pre_call\n');
    write(
      'bad/schema.hooktest.yaml',
      'cases:\n  - name: a\n    event: tool.pre_call\n    expect: { verdit: denied }\n',
    );
    write('bad/p.json', '{\n  "a": 1,\n}\n');
    write('bad/payload.hooktest.yaml', 'cases:\n  - { name: a, event: Stop, payload_file: p.json }\n');
    const res = await hooksTest([join(root, 'tests/bad')]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^hookctl: 3 problems in test files; no case ran\n/);
    expect(res.stderr).toMatch(/tests\/bad\/syntax\.hooktest\.yaml:4:\d+ +error +yaml_parse_error +invalid YAML: /);
    expect(res.stderr).toMatch(
      /tests\/bad\/schema\.hooktest\.yaml:4:15 +error +schema_additional_properties +cases\[0\]\.expect: unknown key "verdit"/,
    );
    expect(res.stderr).toMatch(
      /tests\/bad\/p\.json:2:9 +error +hooktest_payload_file +invalid JSON: trailing comma before .}./,
    );
    const json = await hooksTest([join(root, 'tests/bad/schema.hooktest.yaml'), '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'test_file_invalid',
      diagnostics: [
        { file: 'tests/bad/schema.hooktest.yaml', line: 4, column: 15, code: 'schema_additional_properties' },
      ],
    });
  });

  it('an unknown event or hook is exit 2 at its line, before any case runs', async () => {
    const file = write(
      'bad/names.hooktest.yaml',
      [
        'workspace: ../../demo/workspace',
        'cases:',
        '  - name: fine',
        '    event: SessionStart',
        '  - name: typo in the event',
        '    event: tool.pre_cal',
        '  - name: typo in a hook',
        '    event: tool.pre_call',
        '    expect: { ran: [block-secret-file-edit] }',
        '',
      ].join('\n'),
    );
    const res = await hooksTest([file]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /names\.hooktest\.yaml:6:5 +error +hooktest_unknown_event +unknown event "tool\.pre_cal"/,
    );
    expect(res.stderr).toMatch(
      /names\.hooktest\.yaml:9:21 +error +hooktest_unknown_hook +hook "block-secret-file-edit" is not declared for event "tool\.pre_call"/,
    );
  });

  it('a path that does not exist', async () => {
    const res = await hooksTest([join(root, 'nope')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/test path ".*nope" does not exist/);
  });
});

describe('--init', () => {
  it('writes a starter file for the hooks of an event that passes when run as is, and never overwrites', async () => {
    const target = join(root, 'demo/workspace/prompt.post_assemble.hooktest.yaml');
    const init = await hooksTest(['--init', 'prompt.post_assemble', ...ws()]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('prompt.post_assemble.hooktest.yaml');
    const text = readFileSync(target, 'utf8');
    // One case per declared, active hook, each running only that hook, with a payload skeleton.
    expect(text.match(/^ {2}- name: /gm)).toHaveLength(4);
    for (const hook of ['prompt-style', 'workspace-context', 'add-plan-context', 'add-review-context']) {
      expect(text).toContain(`    hooks: ["${hook}"]\n`);
    }
    expect(text).toContain('      "prompt": ""\n');
    expect(text).not.toContain('"session_id"'); // the engine fills it
    const run = await hooksTest([target, ...ws()]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('4 passed, 0 failed');
    const again = await hooksTest(['--init', 'prompt.post_assemble', ...ws()]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
    rmSync(target);
  });

  it('a cosh event too, to the file named', async () => {
    const target = join(root, 'tests/init-cosh.hooktest.yaml');
    const init = await hooksTest(['--init', 'PreToolUse', target, ...ws()]);
    expect(init.code, init.stderr).toBe(0);
    const run = await hooksTest([target, ...ws()]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed');
  });

  it('an event with no hooks: exit 1', async () => {
    const res = await hooksTest(['--init', 'task.blocked', join(root, 'tests/none.hooktest.yaml'), ...ws()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no hooks declared for event "task\.blocked"/);
  });
});
