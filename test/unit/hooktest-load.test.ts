import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { findTestFiles } from '../../src/hooktest/discover.js';
import { parseTextPattern } from '../../src/hooktest/expect.js';
import { loadTestFile, TEST_FILE_KEYS } from '../../src/hooktest/load.js';
import { readFileSync } from 'node:fs';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('hooktest-load-');
});

async function put(rel: string, text: string): Promise<string> {
  const path = join(dir, rel);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

const where = (ds: { code: string; line: number; column?: number }[]) =>
  ds.map((d) => `${d.code}@${d.line}:${d.column ?? '-'}`);

describe('findTestFiles', () => {
  it('finds *.hooktest.{yaml,yml,json} under folders, sorted, outside node_modules and .git', async () => {
    await put('b/two.hooktest.yml', '');
    await put('a/one.hooktest.yaml', '');
    await put('a/three.hooktest.json', '');
    await put('a/not-a-test.yaml', '');
    await put('a/x.hooktest.toml', '');
    await put('node_modules/pkg/dep.hooktest.yaml', '');
    await put('.git/hooks/h.hooktest.yaml', '');
    const files = await findTestFiles([], dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      'a/one.hooktest.yaml',
      'a/three.hooktest.json',
      'b/two.hooktest.yml',
    ]);
  });

  it('takes files named on the command line as they are, in order, each once, relative to cwd', async () => {
    const a = await put('x/plain.yaml', '');
    await put('y/z.hooktest.yaml', '');
    const files = await findTestFiles(['x/plain.yaml', 'y', join(dir, 'x/plain.yaml')], '/nowhere', dir);
    expect(files).toEqual([a, join(dir, 'y/z.hooktest.yaml')]);
  });

  it('does not follow a link to a folder (no loops), but does follow a link to a file', async () => {
    const target = await put('real/t.hooktest.yaml', '');
    await symlink(dir, join(dir, 'real/loop'));
    await symlink(target, join(dir, 'linked.hooktest.yaml'));
    const files = await findTestFiles([], dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(['linked.hooktest.yaml', 'real/t.hooktest.yaml']);
  });

  it('refuses a path that does not exist (exit 2)', async () => {
    await expect(findTestFiles(['missing'], dir, dir)).rejects.toMatchObject({ exit: 2, code: 'test_path_not_found' });
  });
});

describe('loadTestFile', () => {
  it('reads a YAML file with every key, positions of cases, events and hook names', async () => {
    const file = await put(
      'guard.hooktest.yaml',
      [
        'name: secret guard',
        'env: { POLICY: strict }',
        'workspace: .',
        'cases:',
        '  - name: blocks .env',
        '    event: tool.pre_call',
        '    payload: { tool_id: compozy__fs_write, tool_input: { path: .env } }',
        '    hooks: [guard]',
        '    expect:',
        '      verdict: denied',
        '      exit_code: 1',
        '      reason: /secret/i',
        '      ran: [guard]',
        '      not_ran: [audit]',
        '      outcomes: { guard: denied }',
        '      payload: { tool_input: { path: .env } }',
        '      context: exact text',
        '      max_duration_ms: 500',
        '  - name: dry',
        '    event: PreToolUse',
        '    dry_run: true',
        '    expect: { ran: [] }',
        '',
      ].join('\n'),
    );
    const { testFile, diagnostics } = await loadTestFile(file);
    expect(diagnostics).toEqual([]);
    expect(testFile).toMatchObject({ file, name: 'secret guard', workspace: dir, env: { POLICY: 'strict' } });
    const [first, second] = testFile!.cases;
    expect(first).toMatchObject({
      name: 'blocks .env',
      event: 'tool.pre_call',
      payload: { tool_id: 'compozy__fs_write', tool_input: { path: '.env' } },
      hooks: ['guard'],
      dryRun: false,
      position: { line: 5, column: 5 },
      eventPosition: { line: 6, column: 5 },
      expect: {
        verdict: 'denied',
        exit_code: 1,
        reason: { kind: 'regex', source: 'secret', flags: 'i' },
        ran: ['guard'],
        not_ran: ['audit'],
        outcomes: { guard: 'denied' },
        payload: { tool_input: { path: '.env' } },
        context: { kind: 'exact', text: 'exact text' },
        max_duration_ms: 500,
      },
    });
    expect(first!.namePositions.map((n) => `${n.name}@${n.position.line}`)).toEqual([
      'guard@8',
      'guard@13',
      'audit@14',
      'guard@15',
    ]);
    expect(second).toMatchObject({ name: 'dry', dryRun: true, expect: { ran: [] }, position: { line: 19 } });
  });

  it('defaults the name to the file name, and reads JSON with positions', async () => {
    const file = await put('a.hooktest.json', '{\n  "cases": [\n    {"name": "n", "event": "Stop"}\n  ]\n}\n');
    const { testFile } = await loadTestFile(file);
    expect(testFile).toMatchObject({
      name: 'a.hooktest.json',
      env: {},
      cases: [{ name: 'n', position: { line: 3, column: 5 }, payload: {} }],
    });
    expect(testFile!.workspace).toBeUndefined();
    expect(testFile!.cases[0]!.expect).toBeUndefined();
  });

  it('gives each case the dialect of its file unless the case names its own', async () => {
    const file = await put(
      'd.hooktest.yaml',
      'dialect: cosh\ncases:\n  - { name: a, event: Stop }\n  - { name: b, event: Stop, dialect: claude }\n',
    );
    expect((await loadTestFile(file)).testFile!.cases.map((c) => c.dialect)).toEqual(['cosh', 'claude']);
    const none = await put('n.hooktest.yaml', 'cases:\n  - { name: a, event: Stop }\n');
    expect((await loadTestFile(none)).testFile!.cases[0]!.dialect).toBeUndefined();
  });

  it('replaces ${HOOKTEST_DIR} in env values by the folder of the test file, and nothing else', async () => {
    const file = await put(
      'sub/env.hooktest.yaml',
      'env:\n  CONF: ${HOOKTEST_DIR}/../home/.claude\n  KEPT: $HOME ${OTHER} ${hooktest_dir}\ncases: []\n',
    );
    const { testFile, diagnostics } = await loadTestFile(file);
    expect(diagnostics).toEqual([]);
    expect(testFile!.env).toEqual({
      CONF: `${join(dir, 'sub')}/../home/.claude`,
      KEPT: '$HOME ${OTHER} ${hooktest_dir}',
    });
  });

  it('treats an empty expect as no expect', async () => {
    const file = await put('e.hooktest.yaml', 'cases:\n  - { name: n, event: Stop, expect: {} }\n');
    expect((await loadTestFile(file)).testFile!.cases[0]!.expect).toBeUndefined();
  });

  it('reports YAML and JSON syntax errors at file:line:col', async () => {
    const yaml = await put('bad.hooktest.yaml', 'cases:\n  - name: a\n    event: [unclosed\n');
    const json = await put('bad.hooktest.json', '{\n  "cases": [,]\n}');
    const y = await loadTestFile(yaml);
    expect(y.testFile).toBeUndefined();
    expect(y.diagnostics[0]).toMatchObject({ code: 'yaml_parse_error', file: yaml, severity: 'error' });
    expect(y.diagnostics[0]!.line).toBeGreaterThanOrEqual(3);
    expect(y.diagnostics[0]!.message).toMatch(/^invalid YAML: /);
    expect((await loadTestFile(json)).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      "2:13 invalid JSON: unexpected character ',', expected a value",
    ]);
  });

  it('reports a duplicate key', async () => {
    const file = await put('dup.hooktest.yaml', 'cases: []\ncases: []\n');
    expect(where((await loadTestFile(file)).diagnostics)).toEqual(['yaml_parse_error@2:1']);
  });

  it('checks the schema: unknown keys, types, missing keys, each at its line, as validate words them', async () => {
    const file = await put(
      's.hooktest.yaml',
      [
        'cases:',
        '  - name: a',
        '    event: Stop',
        '    expect:',
        '      verdit: denied',
        '      exit_code: 1.5',
        '  - name: b',
        'extra: 1',
        '',
      ].join('\n'),
    );
    const { diagnostics } = await loadTestFile(file);
    expect(diagnostics.map((d) => `${d.code}@${d.line}: ${d.message}`).sort()).toEqual([
      'schema_additional_properties@5: cases[0].expect: unknown key "verdit"; did you mean "verdict"?',
      'schema_additional_properties@8: document: unknown key "extra"',
      'schema_required@7: cases[1]: missing required key "event"',
      'schema_type@6: cases[0].expect.exit_code: must be integer, got number',
    ]);
  });

  it('reports a document that is not a map, and a missing cases list', async () => {
    expect(where((await loadTestFile(await put('l.hooktest.yaml', '- 1\n'))).diagnostics)).toEqual(['schema_type@1:-']);
    expect((await loadTestFile(await put('m.hooktest.yaml', 'name: x\n'))).diagnostics.map((d) => d.message)).toEqual([
      'document: missing required key "cases"',
    ]);
  });

  it('reads payload_file relative to the test file; its JSON errors point into the payload file', async () => {
    await put('payloads/ok.json', '\uFEFF{"tool_id": "x"}');
    const bad = await put('payloads/bad.json', '{\n  "a": tru\n}');
    await put('payloads/list.json', '[1]');
    const file = await put(
      't/x.hooktest.yaml',
      [
        'cases:',
        '  - { name: ok, event: Stop, payload_file: ../payloads/ok.json }',
        '  - { name: bad, event: Stop, payload_file: ../payloads/bad.json }',
        '  - { name: list, event: Stop, payload_file: ../payloads/list.json }',
        '  - { name: gone, event: Stop, payload_file: nope.json }',
        '  - { name: both, event: Stop, payload: {}, payload_file: ../payloads/ok.json }',
        '',
      ].join('\n'),
    );
    const { diagnostics } = await loadTestFile(file);
    expect(
      diagnostics.map(
        (d) =>
          `${d.file === bad ? 'bad.json' : 'test'}:${d.line}:${d.column} ${d.code} ${d.message.replace(dir, '<dir>')}`,
      ),
    ).toEqual([
      "bad.json:2:8 hooktest_payload_file invalid JSON: unexpected character 't', expected a value",
      'test:4:32 hooktest_payload_file payload_file "../payloads/list.json" must hold a JSON object, got an array',
      'test:5:32 hooktest_payload_file payload_file "nope.json" does not exist (<dir>/t/nope.json)',
      'test:6:45 hooktest_payload_conflict give either payload or payload_file, not both',
    ]);
    const okOnly = await put(
      't/ok.hooktest.yaml',
      'cases:\n  - { name: ok, event: Stop, payload_file: ../payloads/ok.json }\n',
    );
    expect((await loadTestFile(okOnly)).testFile!.cases[0]!.payload).toEqual({ tool_id: 'x' });
  });

  it('reports an invalid /regex/, a dry_run case expecting more than ran/not_ran, and a missing workspace', async () => {
    const file = await put(
      'r.hooktest.yaml',
      [
        'workspace: ../nowhere',
        'cases:',
        '  - name: a',
        '    event: Stop',
        '    expect: { reason: "/(unclosed/" }',
        '  - name: b',
        '    event: Stop',
        '    dry_run: true',
        '    expect: { ran: [x], verdict: allow }',
        '',
      ].join('\n'),
    );
    const { diagnostics } = await loadTestFile(file);
    expect(diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual([
      'hooktest_workspace@1',
      'hooktest_invalid_regex@5',
      'hooktest_dry_run_expect@9',
    ]);
    expect(diagnostics[2]!.message).toBe(
      'a dry_run case checks only ran and not_ran; "verdict" would never be checked',
    );
  });

  it('refuses a workspace that is a file', async () => {
    await put('f', '');
    const file = await put('w.hooktest.yaml', 'workspace: f\ncases: []\n');
    expect((await loadTestFile(file)).diagnostics[0]!.message).toMatch(/^workspace "f" is not a directory/);
  });
});

describe('parseTextPattern', () => {
  it('reads /pattern/flags as a regex and anything else as exact text', () => {
    expect(parseTextPattern('/a.b/')).toEqual({ kind: 'regex', source: 'a.b', flags: '' });
    expect(parseTextPattern('/a/b/im')).toEqual({ kind: 'regex', source: 'a/b', flags: 'im' });
    expect(parseTextPattern('/')).toEqual({ kind: 'exact', text: '/' });
    expect(parseTextPattern('//')).toEqual({ kind: 'exact', text: '//' });
    expect(parseTextPattern('/etc/passwd')).toEqual({ kind: 'exact', text: '/etc/passwd' });
  });
});

describe('the keys of a test file', () => {
  it("are the shipped schema's, at every level", () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'hooktest.schema.json'), 'utf8'));
    const keys = (o: { properties: object }) => Object.keys(o.properties).sort();
    expect([...TEST_FILE_KEYS.file].sort()).toEqual(keys(schema));
    expect([...TEST_FILE_KEYS.case].sort()).toEqual(keys(schema.definitions.case));
    expect([...TEST_FILE_KEYS.expect].sort()).toEqual(keys(schema.definitions.expect));
  });

  it('a misspelt one gets the closest key of its level', async () => {
    const file = await put(
      'k.hooktest.yaml',
      'nme: x\ncases:\n  - name: a\n    evnt: E\n    event: E\n    expect:\n      verdit: deny\n      zzz: 1\n',
    );
    const { diagnostics } = await loadTestFile(file);
    expect(diagnostics.map((d) => d.message).sort()).toEqual([
      'cases[0].expect: unknown key "verdit"; did you mean "verdict"?',
      'cases[0].expect: unknown key "zzz"',
      'cases[0]: unknown key "evnt"; did you mean "event"?',
      'document: unknown key "nme"; did you mean "name"?',
    ]);
  });
});
