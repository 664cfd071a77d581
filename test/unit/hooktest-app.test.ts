// The hooks test use case over the dialect registry: a third dialect registered here (no
// processes) is tested like compozy and cosh — its verdict words, reason and context, its runs
// sorted into dispatch order, names checked against its catalog, records kept out of its own
// sessions folder, and a --init file that passes as written.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initHookTests, runHookTests } from '../../src/app/hooktest.js';
import type { OrderedDeclaration } from '../../src/declarations/model.js';
import { registerDialect } from '../../src/dialects/registry.js';
import type { Dialect, DispatchRequest } from '../../src/dialects/types.js';
import type { RunRecord } from '../../src/ledger/record.js';
import type { Locations } from '../../src/paths.js';
import { tempDir } from '../support/temp.js';

let dir: string;
let unregister: () => void;
const dispatched: DispatchRequest[] = [];

const declaration = (name: string, order: number, status = 'active'): OrderedDeclaration =>
  ({
    dialect: 'fake',
    name,
    event: 'FakeEvent',
    source: 'fake',
    mode: 'sync',
    status,
    enabled: true,
    order,
    matcher: {},
  }) as unknown as OrderedDeclaration;

const fake: Dialect = {
  name: 'fake',
  sources: ['fake'],
  eventRows: () => [],
  hasEvent: (e) => e === 'FakeEvent',
  eventDetail: async () => undefined,
  eventSchemas: async () => ({
    payload: { type: 'object', properties: { session_id: { type: 'string' }, tool: { type: 'string' } } },
    patch: {},
  }),
  sessionsDir: (loc) => join(loc.workspace, 'user-sessions'),
  loadCatalog: async () => ({
    declarations: [
      declaration('first', 1),
      declaration('second', 2),
      declaration('prompt-only', 3),
      declaration('old', 4, 'overridden'),
    ],
    diagnostics: [],
    files: [],
  }),
  validateFile: async () => undefined,
  sessionIdFor: () => undefined,
  plan: async (req) =>
    req.declarations.map((d) => ({
      name: d.name,
      source: d.source,
      mode: d.mode,
      order: d.order,
      matched: d.status === 'active' && req.payload.tool !== 'none',
      fields: [],
      status: d.status,
    })),
  dispatch: async (req) => {
    dispatched.push(req);
    const payload = { session_id: req.sessionId, ...req.payload };
    const record = (name: string, outcome: string): RunRecord =>
      ({ hook_name: name, outcome, duration_ms: 1, session_id: req.sessionId }) as unknown as RunRecord;
    // Recorded as they end: the second before the first.
    const runs = req.declarations
      .filter((d) => d.status === 'active')
      .reverse()
      .map((d) => record(d.name!, d.name === 'prompt-only' ? 'skipped' : 'applied'));
    for (const r of runs) await req.onRecord(r);
    const defer = req.payload.tool === 'risky';
    return {
      verdict: defer ? 'defer' : 'pass',
      reason: defer ? 'someone else decides' : null,
      additional_context: 'ctx from fake',
      payload,
      runs,
      error: null,
    };
  },
  exitCode: (r) => (r.verdict === 'defer' ? 4 : 0),
};

beforeAll(() => {
  dir = tempDir('hooktest-app-');
  unregister = registerDialect(fake);
});
afterAll(() => {
  unregister();
});

const loc = (): Locations => ({
  compozyHome: join(dir, 'c'),
  coshHome: join(dir, 'h'),
  coshSystemRoot: join(dir, 's'),
  workspace: dir,
  additionalDirs: [],
  bundledSkillsDir: join(dir, 'b'),
  pluginDirs: [],
  stateDir: join(dir, 'state'),
});

function testFile(name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, body);
  return file;
}

describe('runHookTests with a registered dialect', () => {
  it('checks its verdict words, reason, context, and runs in dispatch order; records never reach its sessions folder', async () => {
    const file = testFile(
      'fake.hooktest.yaml',
      [
        'env: { FROM_FILE: yes }',
        'cases:',
        '  - name: defers',
        '    event: FakeEvent',
        '    payload: { tool: risky }',
        '    expect:',
        '      verdict: defer',
        '      exit_code: 4',
        '      reason: /else/',
        '      context: ctx from fake',
        '      ran: [first, second]',
        '      not_ran: [prompt-only, old]',
        '      outcomes: { prompt-only: skipped }',
        '      payload: { tool: risky }',
        '  - name: hooks narrows what runs',
        '    event: FakeEvent',
        '    hooks: [second]',
        '    expect: { verdict: pass, ran: [second] }',
        '  - name: dry',
        '    event: FakeEvent',
        '    dry_run: true',
        '    expect: { ran: [first, second, prompt-only] }',
        '',
      ].join('\n'),
    );
    const outcome = await runHookTests({ paths: [file], loc: loc(), env: { PATH: '/bin' }, cwd: dir });
    expect(outcome.kind).toBe('report');
    if (outcome.kind !== 'report') return;
    expect(outcome.report.cases.map((c) => [c.name, c.status, c.unmet.map((u) => u.message)])).toEqual([
      ['defers', 'passed', []],
      ['hooks narrows what runs', 'passed', []],
      ['dry', 'passed', []],
    ]);
    expect(dispatched[0]!.env).toMatchObject({ PATH: '/bin', FROM_FILE: 'yes' });
    // Each case its own fresh session.
    expect(new Set(dispatched.map((d) => d.sessionId)).size).toBe(dispatched.length);
    expect(existsSync(join(dir, 'user-sessions'))).toBe(false);
    expect(
      readdirSync(tmpdir()).filter(
        (n) => n.startsWith('hookctl-test-') && existsSync(join(tmpdir(), n, dispatched[0]!.sessionId)),
      ),
    ).toEqual([]);
  });

  it('an unknown event or an undeclared hook is reported at its position, and nothing runs', async () => {
    const before = dispatched.length;
    const file = testFile(
      'names.hooktest.yaml',
      'cases:\n  - name: a\n    event: FakeEvnt\n  - name: b\n    event: FakeEvent\n    hooks: [frist]\n',
    );
    const outcome = await runHookTests({ paths: [file], loc: loc(), env: {}, cwd: dir });
    expect(outcome.kind).toBe('invalid');
    if (outcome.kind !== 'invalid') return;
    expect(outcome.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '3:5 hooktest_unknown_event unknown event "FakeEvnt" (see: hookctl hooks events)',
      '6:13 hooktest_unknown_hook hook "frist" is not declared for event "FakeEvent"; did you mean "first"?',
    ]);
    expect(dispatched.length).toBe(before);
  });

  it('--init writes one case per active hook, with the skeleton minus what the dialect fills, and it passes', async () => {
    const { file, cases } = await initHookTests({ event: 'FakeEvent', loc: loc(), env: {}, cwd: dir });
    expect(file).toBe(join(dir, 'FakeEvent.hooktest.yaml'));
    expect(cases).toBe(3);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('    payload:\n      "tool": ""\n');
    expect(text).not.toContain('session_id');
    expect(text).toContain('dialect: "fake"');
    const outcome = await runHookTests({ paths: [file], loc: loc(), env: {}, cwd: dir });
    expect(outcome.kind === 'report' && outcome.report).toMatchObject({ passed: 3, failed: 0 });
    await expect(initHookTests({ event: 'FakeEvent', loc: loc(), env: {}, cwd: dir })).rejects.toMatchObject({
      exit: 2,
      code: 'test_file_exists',
    });
  });
});
