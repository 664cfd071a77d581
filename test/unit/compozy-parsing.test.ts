import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { nanosecondsToMs, parseGoDuration } from '../../src/declarations/duration.js';
import { isSecretLikeName, looksLikeSecretValue, parseSecretRef } from '../../src/declarations/secrets.js';
import { locateTomlKeys, parseKeyPath } from '../../src/declarations/toml-locate.js';
import { parseFrontMatter, splitFrontMatter } from '../../src/declarations/frontmatter.js';
import { parseJsonWithPositions } from '../../src/declarations/json-locate.js';
import { decodeSourceBytes, type PathSeg } from '../../src/declarations/source-file.js';
import { expandTemplates } from '../../src/dialects/compozy/rules/templates.js';
import { detectCompozyFileKind } from '../../src/dialects/compozy/sources/detect.js';

describe('parseGoDuration', () => {
  // Each expected value is what Go's time.ParseDuration returns for the text (Go 1.22's
  // src/time/format.go, followed step by step; the cases of its own format_test.go included).
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['+0', 0n],
    ['5s', 5_000_000_000n],
    ['250ms', 250_000_000n],
    ['1m30s', 90_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['300us', 300_000n],
    ['300\u00b5s', 300_000n],
    ['300\u03bcs', 300_000n],
    ['10ns', 10n],
    ['2h45m', 9_900_000_000_000n],
    ['-5s', -5_000_000_000n],
    ['+5s', 5_000_000_000n],
    ['.5s', 500_000_000n],
    ['5.s', 5_000_000_000n],
    ['0s', 0n],
    ['1.004s', 1_004_000_000n],
    ['1.0040s', 1_004_000_000n],
    ['100.00100s', 100_001_000_000n],
    ['3h30m', 12_600_000_000_000n],
    ['10.5s4m', 250_500_000_000n],
    ['-2m3.4s', -123_400_000_000n],
    ['1h2m3s4ms5us6ns', 3_723_004_005_006n],
    ['39h9m14.425s', 140_954_425_000_000n],
    // Below a nanosecond: Go truncates, so these are 0 (the default timeout), not 1 ms.
    ['0.1ns', 0n],
    ['0.9ns', 0n],
    ['1.9ns', 1n],
    ['52763797000ns', 52_763_797_000n],
    // A fraction with more digits than int64 holds: the extra digits are ignored.
    ['0.3333333333333333333h', 1_200_000_000_000n],
    ['9007199254740993ns', 9_007_199_254_740_993n], // above 2^53: exact
    ['9223372036854775807ns', 9_223_372_036_854_775_807n], // Go's maximum
    ['9223372036854775.807us', 9_223_372_036_854_775_807n],
    ['9223372036s854ms775us807ns', 9_223_372_036_854_775_807n],
    ['-9223372036854775808ns', -9_223_372_036_854_775_808n], // and minimum
    ['-9223372036854775.808us', -9_223_372_036_854_775_808n],
    ['0.100000000000000000000h', 360_000_000_000n],
    ['0.830103483285477580700h', 2_988_372_539_827n],
  ])('%s', (text, ns) => {
    expect(parseGoDuration(text)).toBe(ns);
  });

  it.each([
    '',
    '5',
    '1x',
    's',
    '.s',
    '-',
    '+.s',
    '1h 30m',
    ' 5s',
    '1e3s',
    '3000000h',
    '9999999999h',
    '9223372036854775808ns', // one past the maximum
    '-9223372036854775809ns',
    '9223372036854775807ns1ns',
    '18446744073709551616ns',
    '9223372036854775.808us',
    '1..5s',
    '5s-',
  ])('rejects %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });

  it('converts to whole milliseconds, rounding up, with 0 kept for the default', () => {
    expect(nanosecondsToMs(90_000_000_000n)).toBe(90_000);
    expect(nanosecondsToMs(300_000n)).toBe(1);
    expect(nanosecondsToMs(1_500_000n)).toBe(2);
    expect(nanosecondsToMs(0n)).toBe(0);
    expect(nanosecondsToMs(parseGoDuration('0.1ns')!)).toBe(0);
    expect(nanosecondsToMs(parseGoDuration('9223372036854775807ns')!)).toBe(9_223_372_036_855);
  });
});

describe('secrets', () => {
  it.each([
    ['GITHUB_TOKEN', true],
    ['api_key', true],
    ['MyPassword', true],
    ['DB_PASSWD', true],
    ['PRIVATEKEY', true],
    ['AUTHORIZATION', true],
    ['BEARER', true],
    ['AWS_CREDENTIALS', true],
    ['CLIENT_SECRET', true],
    ['TOKEN_FILE', false],
    ['SECRET_DIR', false],
    ['WEBHOOK_URL', false],
    ['OAUTH_TOKEN_URI', false],
    ['CREDENTIAL_PATH', false],
    ['POLICY', false],
    ['LOG_LEVEL', false],
  ])('isSecretLikeName(%s) = %s', (name, expected) => {
    expect(isSecretLikeName(name)).toBe(expected);
  });

  it.each([
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    `sk-ant-${'A1b2'.repeat(6)}`,
    'AKIAIOSFODNN7EXAMPLE',
    'xoxb-1234567890-abcdefghij',
    '-----BEGIN RSA PRIVATE KEY-----',
    'Bearer abcdefghijklmnopqrstuvwxyz',
    'https://user:hunter2@example.com/x',
    'Zq8rT2vXk9LmN4pQw7Yb3Hc6Jd1Fg5Ks',
  ])('looksLikeSecretValue(%j)', (value) => {
    expect(looksLikeSecretValue(value)).toBe(true);
  });

  it.each([
    'strict',
    '/usr/local/bin/hook',
    'https://hooks.example.test/x',
    'info',
    'dist/index.js',
    '0123456789abcdef0123456789abcdef01234567',
    'release-*',
  ])('not secret: %j', (value) => {
    expect(looksLikeSecretValue(value)).toBe(false);
  });

  it('parses secret refs', () => {
    expect(parseSecretRef('env:GH_TOKEN')).toEqual({ kind: 'env', name: 'GH_TOKEN' });
    expect(parseSecretRef(' vault:hooks/github/token ')).toEqual({ kind: 'vault', ref: 'vault:hooks/github/token' });
    expect(parseSecretRef('vault:mcp/x')).toBeUndefined();
    expect(parseSecretRef('env:')).toBeUndefined();
    expect(parseSecretRef('literal')).toBeUndefined();
  });
});

describe('locateTomlKeys', () => {
  const text = `# comment
title = """
[[not.a.header]]
"""
[[hooks.declarations]]
name = "a"
args = [
  "x", # ] not the end
  "y",
]
[hooks.declarations.matcher]
tool_id = "*"
[hooks.declarations.matcher.autonomy]
task_id = "t"

[[hooks.declarations]]
executor.kind = "subprocess"
executor.command = 'c'
matcher = { autonomy = { run_id = "r" } }
list = [{ a = 1 }, { b = 2 }]
"odd.key" = 1

[[resources.hooks]]
[[resources.hooks]]
[resources.hooks.matcher]
input_class = "user"
`;
  const l = locateTomlKeys(text);

  it.each([
    ['title', 2, 1],
    ['hooks.declarations[0]', 5, 1],
    ['hooks.declarations[0].args[1]', 9, 3],
    ['hooks.declarations[0].matcher', 11, 1],
    ['hooks.declarations[0].matcher.tool_id', 12, 1],
    ['hooks.declarations[0].matcher.autonomy.task_id', 14, 1],
    ['hooks.declarations[1]', 16, 1],
    ['hooks.declarations[1].executor', 17, 1],
    ['hooks.declarations[1].executor.command', 18, 1],
    ['hooks.declarations[1].matcher.autonomy.run_id', 19, 26],
    ['hooks.declarations[1].list[1].b', 20, 22],
    ['hooks.declarations[1]["odd.key"]', 21, 1],
    ['resources.hooks[1]', 24, 1],
    ['resources.hooks[1].matcher.input_class', 26, 1],
  ])('%s at %d:%d', (path, line, column) => {
    expect(l.get(path)).toEqual({ line, column });
  });

  it('does not invent keys', () => {
    expect(l.get('hooks.declarations[2]')).toBeUndefined();
    expect(l.get('not.a.header')).toBeUndefined();
  });

  it('takes paths as segments too, and offsets lines', () => {
    expect(locateTomlKeys('a = 1\n', 10).get(['a'])).toEqual({ line: 11, column: 1 });
    expect(parseKeyPath('hooks.declarations[2]["a.b"].x')).toEqual(['hooks', 'declarations', 2, 'a.b', 'x']);
  });

  it('survives text it cannot follow', () => {
    expect(() => locateTomlKeys('[[unclosed\nx = [1, 2\n"""\n= = =\n')).not.toThrow();
  });

  it('finds every table header of generated documents, whatever the lines between them hold', () => {
    // The header scan skips one-line `key = value` lines with a regular expression and walks
    // the rest: strings and arrays that span lines (holding lines that look like headers),
    // inline tables, comments. Every document the parser accepts must give each header's place.
    let seed = 2024;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const KEYS = ['a', 'b.c', '"q k"', "'l k'", 'd . e', '"e\\"q"', 'x-y_z', '"a=b"', "'#'", '"[t]"'];
    const VALUES = [
      '1',
      '"s"',
      "'l'",
      '"a # b"',
      '"""m\n[x]\n"""',
      "'''m\n[[y]]\n'''",
      '"""\n  [z] \\\n  """',
      '[1, 2]',
      '["a", "b",]',
      '[\n  [1],\n  "x",\n]',
      '[ # c\n [2] ]',
      '{ a = 1 }',
      '{ a = [1, 2], b = "]" }',
      'true',
      '1979-05-27 07:32:00Z',
      '"a\\"b"',
      '"\\u0041"',
      '[]',
      '[ ]',
      '[1,2] # [c]',
      '"x" # [y]',
      '[[1, 2], [3]]',
      "['''x''']",
      '["""\n[w]\n"""]',
    ];
    let checked = 0;
    for (let n = 0; n < 1500; n++) {
      const eol = rand(4) === 0 ? '\r\n' : '\n';
      const lines: string[] = [];
      const headers: { path: PathSeg[]; line: number; column: number }[] = [];
      const arrays = new Map<string, number>();
      let line = 1;
      const push = (text: string): void => {
        lines.push(text);
        line += text.split('\n').length;
      };
      for (let t = 0; t < 1 + rand(4); t++) {
        const indent = rand(3) === 0 ? '  ' : '';
        if (rand(2) === 0) {
          const name = `arr${rand(2)}`;
          const index = (arrays.get(name) ?? -1) + 1;
          arrays.set(name, index);
          headers.push({ path: ['list', name, index], line, column: indent.length + 1 });
          push(`${indent}[[list.${name}]]${rand(3) === 0 ? ' # c' : ''}`);
        } else {
          headers.push({ path: [`t${t}`], line, column: indent.length + 1 });
          push(`${indent}[t${t}]`);
        }
        const keys = new Set<string>();
        for (let k = rand(6); k > 0; k--) {
          const key = KEYS[rand(KEYS.length)]!;
          if (keys.has(key)) continue;
          keys.add(key);
          if (rand(5) === 0) push(rand(2) === 0 ? '# [not.a.header]' : '');
          push(`${rand(2) === 0 ? ' ' : ''}${key}${rand(2) === 0 ? ' = ' : '='}${VALUES[rand(VALUES.length)]}`);
        }
      }
      const text = lines.join('\n').replaceAll('\n', eol) + eol;
      try {
        parseToml(text);
      } catch {
        continue; // only text the parser accepts is ever scanned
      }
      checked++;
      const l = locateTomlKeys(text);
      // Lines inside strings and arrays that look like headers are not headers.
      for (const fake of [['x'], ['y', 0], ['z'], ['w']]) expect(l.get(fake), `${fake[0]} in\n${text}`).toBeUndefined();
      for (const h of headers)
        expect(l.get(h.path), `${JSON.stringify(h.path)} in\n${text}`).toEqual({ line: h.line, column: h.column });
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe('front matter', () => {
  it('splits YAML and TOML blocks, and sees unterminated ones', () => {
    expect(splitFrontMatter('# no front matter\n')).toEqual({ kind: 'none' });
    expect(splitFrontMatter('---\nname: x\n---\nbody')).toEqual({
      kind: 'block',
      block: { delimiter: '---', text: 'name: x\n', firstLine: 2 },
    });
    expect(splitFrontMatter('+++\r\nname = "x"\r\n+++\r\n')).toMatchObject({
      kind: 'block',
      block: { delimiter: '+++' },
    });
    expect(splitFrontMatter('---\nname: x\n')).toEqual({ kind: 'unterminated', delimiter: '---' });
  });

  it('parses YAML with file line numbers', () => {
    const split = splitFrontMatter('---\nname: x\nhooks:\n  - event: a\n    command: b\n---\n');
    if (split.kind !== 'block') throw new Error('no block');
    const fm = parseFrontMatter(split.block, '/a/AGENT.md');
    expect(fm.format).toBe('yaml');
    expect(fm.data).toEqual({ name: 'x', hooks: [{ event: 'a', command: 'b' }] });
    expect(fm.locate(['hooks', 0])).toEqual({ line: 4, column: 5 });
    expect(fm.locate(['hooks', 0, 'command'])).toEqual({ line: 5, column: 5 });
    expect(fm.locate(['nope'])).toBeUndefined();
  });

  it('reports YAML errors with line and column', () => {
    const split = splitFrontMatter('---\nname: x\nname: y\nlist: [\n---\n');
    if (split.kind !== 'block') throw new Error('no block');
    const fm = parseFrontMatter(split.block, '/a/SKILL.md', 'skill');
    expect(fm.data).toBeUndefined();
    expect(fm.diagnostics[0]).toMatchObject({
      code: 'yaml_parse_error',
      line: 3,
      column: 1,
      source: 'skill',
      file: '/a/SKILL.md',
    });
    expect(fm.diagnostics[0]!.message).toContain('unique');
  });

  it('a front matter that is not a map is a diagnostic', () => {
    const split = splitFrontMatter('---\n- a\n- b\n---\n');
    if (split.kind !== 'block') throw new Error('no block');
    expect(parseFrontMatter(split.block, '/f').diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['frontmatter_not_a_map', 2],
    ]);
  });

  it('accepts TOML between +++, and between --- when it is not YAML', () => {
    for (const text of [
      '+++\nname = "a"\n[[hooks]]\nevent = "x"\n+++\n',
      '---\nname = "a"\n[[hooks]]\nevent = "x"\n---\n',
    ]) {
      const split = splitFrontMatter(text);
      if (split.kind !== 'block') throw new Error('no block');
      const fm = parseFrontMatter(split.block, '/f');
      expect(fm.format).toBe('toml');
      expect(fm.data).toEqual({ name: 'a', hooks: [{ event: 'x' }] });
      expect(fm.locate(['hooks', 0, 'event'])).toEqual({ line: 4, column: 1 });
    }
  });

  it('a TOML error in a +++ block carries file lines', () => {
    const split = splitFrontMatter('+++\nname = "a"\nbad = = 1\n+++\n');
    if (split.kind !== 'block') throw new Error('no block');
    expect(parseFrontMatter(split.block, '/f').diagnostics[0]).toMatchObject({ code: 'toml_parse_error', line: 3 });
  });
});

describe('parseJsonWithPositions', () => {
  it('locates keys and list items', () => {
    const parsed = parseJsonWithPositions(
      '{\n  "resources": {\n    "hooks": [\n      { "name": "a" },\n      {\n        "name": "b"\n      }\n    ]\n  }\n}\n',
    );
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.locate(['resources', 'hooks', 1])).toEqual({ line: 5, column: 7 });
    expect(parsed.locate(['resources', 'hooks', 1, 'name'])).toEqual({ line: 6, column: 9 });
    expect(parsed.locate(['resources', 'hooks', 0, 'name'])).toEqual({ line: 4, column: 9 });
  });

  it('reports syntax errors with line and column', () => {
    const parsed = parseJsonWithPositions('{\n  "a": 1,\n  "b": }\n');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.position.line).toBe(3);
    // A trailing comma is named as one, at the comma (not at the brace a line later).
    const trailing = parseJsonWithPositions('{\n  "a": 1,\n}');
    expect(trailing.ok === false && trailing.position).toEqual({ line: 2, column: 9 });
    expect(trailing.ok === false && trailing.message).toBe("trailing comma before '}'");
  });
});

describe('decodeSourceBytes', () => {
  it('refuses binary content with the line of the first NUL', () => {
    const r = decodeSourceBytes(Buffer.from('a = 1\nb\0c'), '/f', 'config');
    expect(r).toMatchObject({ kind: 'bad', diagnostic: { code: 'binary_file', line: 2, column: 2, source: 'config' } });
  });

  it('refuses invalid UTF-8 with its position', () => {
    const r = decodeSourceBytes(Buffer.from([0x61, 0x0a, 0x62, 0xff, 0x63]), '/f');
    expect(r).toMatchObject({ kind: 'bad', diagnostic: { code: 'invalid_utf8', line: 2, column: 2 } });
  });

  it('drops a BOM, says it was there, and keeps multi-byte text', () => {
    expect(decodeSourceBytes(Buffer.from('\uFEFFname = "é☺"'), '/f')).toEqual({
      kind: 'text',
      text: 'name = "é☺"',
      bom: true,
    });
    expect(decodeSourceBytes(Buffer.from('name = "é☺"'), '/f')).toEqual({ kind: 'text', text: 'name = "é☺"' });
  });
});

describe('expandTemplates', () => {
  const ctx = { configDir: '/ext', env: { NAME: 'v', API_KEY: 'k' } };
  it('expands config_dir and env, leaves other {{...}} alone', () => {
    expect(expandTemplates('{{config_dir}}/bin:{{ env:NAME }}:{{env:GONE}}:{{other}}', ctx)).toEqual({
      ok: true,
      value: '/ext/bin:v::{{other}}',
    });
  });
  it('refuses secret-like names and unterminated templates', () => {
    expect(expandTemplates('{{env:API_KEY}}', ctx)).toEqual({
      ok: false,
      code: 'env_template_secret',
      message: 'env template "API_KEY" must use secret_env',
    });
    expect(expandTemplates('x{{env:NAME', ctx)).toEqual({
      ok: false,
      code: 'invalid_env_template',
      message: 'invalid env template "x{{env:NAME"',
    });
    expect(expandTemplates('{{env:1X}}', ctx)).toMatchObject({ ok: false, code: 'invalid_env_template' });
  });
});

describe('detectCompozyFileKind', () => {
  it.each([
    ['/h/config.toml', '', 'config'],
    ['/w/.copilot-shell/config.toml', '', undefined],
    ['/x/config.toml', '[[hooks.PreToolUse]]\nname = "a"\n', undefined],
    ['/e/extension.toml', '', 'extension_toml'],
    ['/e/extension.json', '', 'extension_json'],
    ['/a/r/AGENT.md', '', 'agent'],
    ['/s/x/SKILL.md', '', 'skill'],
    ['/tmp/hooks.toml', '[[hooks.declarations]]\nname = "a"\n', 'config'],
    ['/tmp/manifest.toml', '[extension]\nname = "a"\n', 'extension_toml'],
    ['/tmp/manifest.json', '{ "extension": { "name": "a" } }', 'extension_json'],
    ['/tmp/cosh.json', '{ "name": "a", "hooks": { "PreToolUse": [] } }', undefined],
    ['/tmp/notes.md', '---\nname: s\nmetadata:\n  compozy:\n    hooks: []\n---\n', 'skill'],
    ['/tmp/agent.md', '---\nname: a\nhooks:\n  - event: x\n---\n', 'agent'],
    ['/tmp/readme.md', '# hello\n', undefined],
    ['/tmp/data.bin', 'whatever', undefined],
  ])('%s', (path, text, kind) => {
    expect(detectCompozyFileKind(path, text)).toBe(kind);
  });
});
