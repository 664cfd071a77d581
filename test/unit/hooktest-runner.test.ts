import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { makeColour } from '../../src/cli/colour.js';
import { HookctlError } from '../../src/errors.js';
import type { CaseResult, TestCase, TestFile, TestRunReport } from '../../src/hooktest/model.js';
import { runTests, type FireCase } from '../../src/hooktest/runner.js';
import { payloadSkeleton, starterTestFile, untypedFields } from '../../src/hooktest/starter.js';
import { annotation } from '../../src/views/hooktest/github.js';
import { formatTestReport, testReportFormat } from '../../src/views/hooktest/index.js';
import { formatJunitReport, xmlSafe } from '../../src/views/hooktest/junit.js';

const plain = makeColour(false);

function testCase(name: string, line: number, over: Partial<TestCase> = {}): TestCase {
  return {
    name,
    event: 'tool.pre_call',
    payload: {},
    dryRun: false,
    position: { line, column: 5 },
    eventPosition: { line: line + 1 },
    namePositions: [],
    ...over,
  };
}

function file(path: string, cases: TestCase[]): TestFile {
  return { file: path, name: path.split('/').at(-1)!, env: {}, cases };
}

const denied: CaseResult = {
  kind: 'dispatch',
  verdict: 'denied',
  exitCode: 1,
  failed: false,
  reason: 'no <secrets> & "quotes"',
  context: null,
  error: null,
  payload: { tool_input: { path: '.env' } },
  runs: [{ hook: 'guard', outcome: 'denied', duration_ms: 3 }],
};

/** A clock that moves 5 ms per read. */
function clock(): () => number {
  let t = 0;
  return () => (t += 5);
}

const fireAll: FireCase = async () => denied;

const files = [
  file('/w/a.hooktest.yaml', [
    testCase('blocks .env', 3, { expect: { verdict: 'denied' } }),
    testCase('allows README', 9, { expect: { verdict: 'completed', payload: { tool_input: { path: 'README' } } } }),
  ]),
  file('/w/b.hooktest.yaml', [testCase('no expect', 2)]),
];

describe('runTests', () => {
  it('runs every case, checks it, and counts', async () => {
    const seen: string[] = [];
    const report = await runTests(files, { fire: fireAll, now: clock(), cwd: '/w', onCase: (c) => seen.push(c.name) });
    expect(report).toMatchObject({
      files: ['a.hooktest.yaml', 'b.hooktest.yaml'],
      passed: 2,
      failed: 1,
      bailed: false,
    });
    expect(report.cases.map((c) => [c.name, c.status, c.duration_ms])).toEqual([
      ['blocks .env', 'passed', 5],
      ['allows README', 'failed', 5],
      ['no expect', 'passed', 5],
    ]);
    expect(seen).toEqual(['blocks .env', 'allows README', 'no expect']);
  });

  it('--filter runs the cases whose name contains the text', async () => {
    const fired: string[] = [];
    await runTests(files, { fire: async (c) => (fired.push(c.name), denied), filter: 'o', cwd: '/w' });
    expect(fired).toEqual(['blocks .env', 'allows README', 'no expect']);
    const only = await runTests(files, { fire: fireAll, filter: 'README', cwd: '/w' });
    expect(only.cases.map((c) => c.name)).toEqual(['allows README']);
  });

  it('--bail stops at the first failure and says so only when cases were left', async () => {
    const fired: string[] = [];
    const report = await runTests(files, { fire: async (c) => (fired.push(c.name), denied), bail: true, cwd: '/w' });
    expect(fired).toEqual(['blocks .env', 'allows README']);
    expect(report).toMatchObject({ passed: 1, failed: 1, bailed: true });
    const last = await runTests([files[0]!], { fire: fireAll, bail: true, cwd: '/w' });
    expect(last.bailed).toBe(false);
  });

  it('a case whose fire throws fails with the message and details; the others still run', async () => {
    const fire: FireCase = async (c) => {
      if (c.name === 'blocks .env')
        throw new HookctlError('declarations_invalid', 'refusing to fire "tool.pre_call": 1 declaration error', 2, {
          details: ['config.toml:3: bad'],
        });
      return denied;
    };
    const report = await runTests(files, { fire, cwd: '/w' });
    expect(report.cases[0]).toMatchObject({
      status: 'failed',
      error: 'refusing to fire "tool.pre_call": 1 declaration error',
      errorDetails: ['config.toml:3: bad'],
    });
    expect(report.cases).toHaveLength(3);
  });
});

async function sampleReport(): Promise<TestRunReport> {
  return runTests(files, { fire: fireAll, now: clock(), cwd: '/w' });
}

describe('formats', () => {
  it('human: a line per case with ✓/✗ and duration, each unmet expectation, a payload diff, the summary line', async () => {
    const text = formatTestReport('human', await sampleReport(), plain);
    expect(text).toBe(
      [
        'a.hooktest.yaml  a.hooktest.yaml',
        '  ✓ blocks .env  5 ms',
        '  ✗ allows README  5 ms',
        '      verdict: expected "completed", got "denied"',
        '      payload: 1 difference from the expected subset',
        '        tool_input.path',
        '          - expected "README"',
        '          + actual   ".env"',
        '',
        'b.hooktest.yaml  b.hooktest.yaml',
        '  ✓ no expect  5 ms',
        '',
        '2 passed, 1 failed',
      ].join('\n'),
    );
  });

  it('human: --bail is said before the summary', async () => {
    const report = await runTests(files, { fire: fireAll, bail: true, cwd: '/w' });
    expect(formatTestReport('human', report, plain).split('\n').slice(-2)).toEqual([
      'Stopped at the first failure (--bail).',
      '1 passed, 1 failed',
    ]);
  });

  it('json: the report as one document', async () => {
    const doc = JSON.parse(formatTestReport('json', await sampleReport(), plain));
    expect(doc).toMatchObject({ passed: 2, failed: 1, bailed: false, files: ['a.hooktest.yaml', 'b.hooktest.yaml'] });
    expect(doc.cases[1]).toMatchObject({
      file: 'a.hooktest.yaml',
      line: 9,
      name: 'allows README',
      status: 'failed',
      failures: [
        { expectation: 'verdict', expected: 'completed', actual: 'denied' },
        {
          expectation: 'payload',
          differences: [{ path: 'tool_input.path', expected: 'README', actual: '.env', absent: false }],
        },
      ],
    });
  });

  it('jsonl: the case objects one per line; chosen by -o jsonl unless --format says otherwise', async () => {
    const lines = formatTestReport('jsonl', await sampleReport(), plain).split('\n');
    expect(lines.map((l) => JSON.parse(l).name)).toEqual(['blocks .env', 'allows README', 'no expect']);
    expect(testReportFormat(undefined, 'jsonl', {})).toBe('jsonl');
    expect(testReportFormat('tap', 'jsonl', {})).toBe('tap');
    expect(testReportFormat(undefined, 'json', {})).toBe('json');
    expect(testReportFormat(undefined, 'human', { GITHUB_ACTIONS: 'true' })).toBe('github');
    expect(testReportFormat(undefined, 'human', {})).toBe('human');
  });

  it('tap: version 13, a test point per case, a YAML block per failure, the plan last', async () => {
    const lines = formatTestReport('tap', await sampleReport(), plain).split('\n');
    expect(lines[0]).toBe('TAP version 13');
    expect(lines[1]).toBe('ok 1 - a.hooktest.yaml > blocks .env');
    expect(lines[2]).toBe('not ok 2 - a.hooktest.yaml > allows README');
    expect(lines[3]).toBe('  ---');
    expect(lines).toContain('      message: "verdict: expected \\"completed\\", got \\"denied\\""');
    expect(lines.slice(-3)).toEqual(['ok 3 - b.hooktest.yaml > no expect', '1..3', '# 2 passed, 1 failed']);
    const bailed = await runTests(files, { fire: fireAll, bail: true, cwd: '/w' });
    expect(formatTestReport('tap', bailed, plain)).toContain('1..2\nBail out!');
  });

  it('tap: a # in a name is escaped (it would start a directive)', async () => {
    const report = await runTests([file('/w/c.hooktest.yaml', [testCase('issue #12', 1)])], {
      fire: fireAll,
      cwd: '/w',
    });
    expect(formatTestReport('tap', report, plain)).toContain('ok 1 - c.hooktest.yaml > issue \\#12');
  });

  it('github: one annotation per failed case at its line, then the plain report', async () => {
    const text = formatTestReport('github', await sampleReport(), plain);
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '::error file=a.hooktest.yaml,line=9,col=5,title=hooks test%3A allows README::verdict: expected "completed", got "denied"%0Apayload: 1 difference from the expected subset%0A  tool_input.path: expected "README", got ".env"',
    );
    expect(lines.filter((l) => l.startsWith('::'))).toHaveLength(1);
    expect(lines.at(-1)).toBe('2 passed, 1 failed');
  });
});

/** Parses XML strictly (saxes: XML 1.0 well-formedness) into a small element tree. */
interface El {
  name: string;
  attributes: Record<string, string>;
  children: El[];
  text: string;
}
function parseXml(xml: string): El {
  const parser = new SaxesParser();
  const root: El = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: El[] = [root];
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const el: El = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' };
    stack.at(-1)!.children.push(el);
    stack.push(el);
  });
  parser.on('text', (t) => {
    stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  return root.children[0]!;
}

describe('junit', () => {
  it('is well-formed XML with testsuites > testsuite per file > testcase per case, failures with their text', async () => {
    const xml = formatJunitReport(await sampleReport());
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const root = parseXml(xml);
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0' });
    expect(root.children.map((s) => [s.name, s.attributes.name, s.attributes.tests, s.attributes.failures])).toEqual([
      ['testsuite', 'a.hooktest.yaml', '2', '1'],
      ['testsuite', 'b.hooktest.yaml', '1', '0'],
    ]);
    const failedCase = root.children[0]!.children[1]!;
    expect(failedCase.attributes).toEqual({
      name: 'allows README',
      classname: 'a.hooktest.yaml',
      file: 'a.hooktest.yaml',
      line: '9',
      time: '0.005',
    });
    const failure = failedCase.children[0]!;
    expect(failure.name).toBe('failure');
    expect(failure.attributes.message).toBe('2 expectations not met');
    expect(failure.text).toContain('verdict: expected "completed", got "denied"');
    expect(root.children[0]!.children[0]!.children).toEqual([]);
  });

  it('stays well-formed whatever the names and messages hold', async () => {
    const nasty = 'a<b>&"c"\u0001\u0000\uD800 \n\t]]>';
    const fire: FireCase = async () => {
      throw new Error(nasty);
    };
    const report = await runTests(
      [file('/w/x & <y>.hooktest.yaml', [testCase(nasty, 1, { expect: { verdict: nasty } })])],
      { fire, cwd: '/w' },
    );
    const root = parseXml(formatJunitReport(report));
    const tc = root.children[0]!.children[0]!;
    expect(tc.attributes.name).toBe('a<b>&"c"\uFFFD\uFFFD\uFFFD \n\t]]>');
    expect(tc.children[0]!.name).toBe('error');
    expect(root.attributes).toMatchObject({ errors: '1', failures: '0' });
    expect(xmlSafe('ok\u{1F600}')).toBe('ok\u{1F600}');
  });
});

describe('github annotation', () => {
  it('escapes what would end a property or the message', () => {
    const report = {
      file: 'a,b:c.yaml',
      suite: 's',
      name: 'x',
      event: 'e',
      position: { line: 2 },
      dryRun: false,
      status: 'failed' as const,
      duration_ms: 1,
      unmet: [{ key: 'k', expected: 1, actual: 2, message: '100% wrong' }],
    };
    expect(annotation(report)).toBe('::error file=a%2Cb%3Ac.yaml,line=2,title=hooks test%3A x::100%25 wrong');
  });
});

describe('starter', () => {
  const schema = {
    type: 'object',
    properties: {
      event: { type: 'string' },
      tool_id: { type: 'string' },
      read_only: { type: 'boolean' },
      attempt: { type: 'integer' },
      mode: { type: 'string', enum: ['default', 'plan'] },
      tool_input: { $ref: '#/definitions/Input' },
      tags: { type: 'array' },
      anything: {},
      maybe: { type: ['null', 'string'] },
    },
    definitions: { Input: { type: 'object' } },
  };

  it('payloadSkeleton gives a typed empty value per field, leaving out those the engine fills and open ones', () => {
    expect(payloadSkeleton(schema, new Set(['event']))).toEqual({
      tool_id: '',
      read_only: false,
      attempt: 0,
      mode: 'default',
      tool_input: {},
      tags: [],
      maybe: '',
    });
    expect(payloadSkeleton(undefined)).toEqual({});
    expect(untypedFields(schema, new Set(['event']))).toEqual(['anything']);
  });

  it('starterTestFile writes one case per hook with what it observed, as a loadable test file', () => {
    const text = starterTestFile({
      event: 'tool.pre_call',
      dialect: 'compozy',
      workspace: '.',
      payload: { tool_id: '' },
      untyped: ['tool_input', 'extra'],
      cases: [
        { hook: 'guard', observed: { ...denied, reason: '/looks like a regex/' } },
        { hook: 'audit', observed: { ...denied, runs: [], reason: null, verdict: 'completed', exitCode: 0 } },
      ],
    });
    expect(text).toContain(
      '  - name: "guard with the skeleton payload"\n    event: "tool.pre_call"\n    hooks: ["guard"]\n    payload:\n      "tool_id": ""\n      # more fields of the payload: tool_input, extra\n    expect:\n      verdict: "denied"\n      exit_code: 1\n      ran: ["guard"]\n      outcomes: {"guard":"denied"}\n',
    );
    expect(text).toContain('    expect:\n      verdict: "completed"\n      exit_code: 0\n      ran: []\n');
  });
});
