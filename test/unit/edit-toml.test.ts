import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  appendDeclarationBlock,
  deleteDeclarationBlock,
  formatDeclarationBlock,
  scanConfigLayout,
  setDeclarationValue,
  unsetDeclarationValue,
} from '../../src/edit/toml-edit.js';
import { formatString, formatValue } from '../../src/edit/toml-format.js';
import { scanToml } from '../../src/edit/toml-scan.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');
const SEED = read('test/fixtures/edit/seed-config.toml');
const COMMENTED = read('test/fixtures/edit/commented.toml');
const DEMO_GLOBAL = read('fixtures/demo/home/.compozy/config.toml');
const DEMO_WORKSPACE = read('fixtures/demo/workspace/.compozy/config.toml');
const crlf = (s: string): string => s.replaceAll('\n', '\r\n');

/** Every real-world-style text, also with CRLF line breaks and without the last line break. */
const TEXTS: Record<string, string> = {
  seed: SEED,
  commented: COMMENTED,
  demoGlobal: DEMO_GLOBAL,
  demoWorkspace: DEMO_WORKSPACE,
  seedCrlf: crlf(SEED),
  commentedCrlf: crlf(COMMENTED),
  commentedNoFinalNewline: COMMENTED.trimEnd(),
};

describe('scanToml', () => {
  it.each(Object.entries(TEXTS))('tiles %s: the items cover every character once, in order', (_name, text) => {
    const items = scanToml(text);
    expect(items.map((i) => text.slice(i.start, i.end)).join('')).toBe(text);
    for (let k = 1; k < items.length; k++) expect(items[k]!.start).toBe(items[k - 1]!.end);
    expect(items.some((i) => i.kind === 'other')).toBe(false);
  });

  it('classifies lines; a multi-line value is one item, whatever it contains', () => {
    const text = '# c\n\n[a]\nx = """\n[[not.a.header]]\n"""  # tail\n[[b]]\ny = [\n  1, # one\n  2,\n]\n';
    const items = scanToml(text);
    expect(items.map((i) => i.kind)).toEqual(['comment', 'blank', 'header', 'kv', 'header', 'kv']);
    expect(items[2]).toMatchObject({ keys: ['a'], array: false });
    expect(items[4]).toMatchObject({ keys: ['b'], array: true });
    const kv = items[3]!.kind === 'kv' ? items[3]!.kv : undefined;
    expect(text.slice(kv!.valueStart, kv!.valueEnd)).toBe('"""\n[[not.a.header]]\n"""');
  });

  it('records the key and value of every inline-table entry, nested ones too', () => {
    const text = `m = { "odd.key" = 'v', a.b = 1, t = { u = true } }\n`;
    const [item] = scanToml(text);
    if (item?.kind !== 'kv') throw new Error('expected a key/value item');
    const entries = item.kv.inline!.entries;
    expect(entries.map((e) => e.keys)).toEqual([['odd.key'], ['a', 'b'], ['t']]);
    expect(entries.map((e) => text.slice(e.valueStart, e.valueEnd))).toEqual(["'v'", '1', '{ u = true }']);
    expect(entries[2]!.inline!.entries[0]!.keys).toEqual(['u']);
    expect(text[item.kv.inline!.close]).toBe('}');
  });

  it('keeps a date with a space and trailing blanks out of the value', () => {
    const text = 'd = 1979-05-27 07:32:00Z   # when\n';
    const [item] = scanToml(text);
    if (item?.kind !== 'kv') throw new Error('expected a key/value item');
    expect(text.slice(item.kv.valueStart, item.kv.valueEnd)).toBe('1979-05-27 07:32:00Z');
  });

  it('marks a line it cannot follow as other, and goes on', () => {
    const items = scanToml('a = "unterminated\nb = 1\n');
    expect(items.map((i) => i.kind)).toEqual(['other', 'kv']);
  });
});

describe('scanConfigLayout', () => {
  it('finds each [[hooks.declarations]] with its sub-tables', () => {
    const layout = scanConfigLayout(SEED);
    expect(layout.blocks.map((b) => b.sections.map((s) => s.path.join('.')))).toEqual([
      ['', 'matcher', 'matcher.autonomy'],
      ['', 'matcher', 'executor'],
      [''],
    ]);
    expect(layout.eol).toBe('\n');
    expect(scanConfigLayout(crlf(SEED)).eol).toBe('\r\n');
  });

  it.each(Object.entries(TEXTS))('finds as many blocks in %s as the parser finds declarations', (_name, text) => {
    const parsed = parse(text) as { hooks?: { declarations?: unknown[] } };
    expect(scanConfigLayout(text).blocks).toHaveLength(parsed.hooks?.declarations?.length ?? 0);
  });

  it('ends a declaration at the next header that is not one of its sub-tables', () => {
    const layout = scanConfigLayout(COMMENTED);
    const last = layout.blocks.at(-1)!;
    expect(layout.items[last.endIndex]).toMatchObject({ kind: 'header', keys: ['ui'] });
  });
});

describe('setDeclarationValue', () => {
  it('replaces only the value: spacing, quoting and the trailing comment stay', () => {
    const next = setDeclarationValue(COMMENTED, 0, ['name'], 'guard-secret-files');
    expect(next).toBe(
      COMMENTED.replace(
        '    name    = "guard-secrets"        # keep the name stable',
        '    name    = "guard-secret-files"        # keep the name stable',
      ),
    );
  });

  it('replaces a multi-line value as a whole', () => {
    const next = setDeclarationValue(COMMENTED, 0, ['args'], ['--quiet']);
    expect(next).toBe(
      COMMENTED.replace(
        'args = [\n      "--policy", "secret-files",   # see policies/secret-files.rego\n      "--quiet",\n    ]',
        'args = ["--quiet"]',
      ),
    );
  });

  it('inserts a new key after its canonical predecessor, indented like its neighbours', () => {
    const next = setDeclarationValue(COMMENTED, 0, ['enabled'], false);
    expect(next).toBe(COMMENTED.replace('    mode    = "sync"\n', '    mode    = "sync"\n    enabled = false\n'));
    const seed = setDeclarationValue(SEED, 0, ['priority'], 10);
    expect(seed).toBe(
      SEED.replace(
        'required = true\ncommand = "./hooks/claim-policy"',
        'required = true\npriority = 10\ncommand = "./hooks/claim-policy"',
      ),
    );
  });

  it('writes into an existing sub-table', () => {
    const next = setDeclarationValue(SEED, 1, ['matcher', 'workspace_id'], 'ws_*');
    expect(next).toBe(SEED.replace('tool_read_only = false\n', 'tool_read_only = false\nworkspace_id = "ws_*"\n'));
  });

  it('keeps the dotted-key style of a declaration that uses it', () => {
    const next = setDeclarationValue(COMMENTED, 2, ['matcher', 'autonomy', 'run_id'], 'r-*');
    expect(next).toBe(
      COMMENTED.replace(
        'matcher.session_type = "interactive"\n',
        'matcher.session_type = "interactive"\nmatcher.autonomy.run_id = "r-*"\n',
      ),
    );
  });

  it('keeps inline tables inline: set, add and nest inside them', () => {
    let next = setDeclarationValue(COMMENTED, 1, ['matcher', 'input_class'], 'agent');
    next = setDeclarationValue(next, 1, ['executor', 'env', 'LEVEL'], 'info');
    next = setDeclarationValue(next, 1, ['metadata', 'team'], 'docs');
    expect(next).toBe(
      COMMENTED.replace('matcher = { input_class = "user" }', 'matcher = { input_class = "agent" }')
        .replace('args = ["./hooks/style.mjs"] }', 'args = ["./hooks/style.mjs"], env = { LEVEL = "info" } }')
        .replace('ticket = "DOC-42" }', 'ticket = "DOC-42", team = "docs" }'),
    );
  });

  it('writes a missing string map as an inline table in its parent', () => {
    const top = setDeclarationValue(SEED, 0, ['env', 'MODE'], 'strict');
    expect(top).toBe(
      SEED.replace(
        'command = "./hooks/claim-policy"\n',
        'command = "./hooks/claim-policy"\nenv = { MODE = "strict" }\n',
      ),
    );
    const under = setDeclarationValue(SEED, 1, ['executor', 'secret_env', 'API'], 'env:API');
    expect(under).toBe(
      SEED.replace(
        'env = { POLICY = "secret-files" }\n',
        'env = { POLICY = "secret-files" }\nsecret_env = { API = "env:API" }\n',
      ),
    );
  });

  it('adds a missing sub-table in canonical order: matcher tables before the executor', () => {
    const next = setDeclarationValue(SEED, 1, ['matcher', 'autonomy', 'workflow_id'], 'release-*');
    expect(next).toBe(
      SEED.replace(
        'tool_read_only = false\n\n[hooks.declarations.executor]',
        'tool_read_only = false\n\n[hooks.declarations.matcher.autonomy]\nworkflow_id = "release-*"\n\n[hooks.declarations.executor]',
      ),
    );
    const atEnd = setDeclarationValue(SEED, 2, ['matcher', 'session_type'], 'interactive');
    expect(atEnd).toBe(`${SEED}\n[hooks.declarations.matcher]\nsession_type = "interactive"\n`);
  });

  it('adds a new last sub-table after the comment lines that close the declaration', () => {
    const text = '[[hooks.declarations]]\nname = "a"\ncommand = "c"\n# timeout = "1s"\n\n[ui]\n';
    expect(setDeclarationValue(text, 0, ['matcher', 'tool_id'], '*')).toBe(
      '[[hooks.declarations]]\nname = "a"\ncommand = "c"\n# timeout = "1s"\n\n[hooks.declarations.matcher]\ntool_id = "*"\n\n[ui]\n',
    );
  });

  it('indents a key added to an empty sub-table like its header', () => {
    const text = '  [[hooks.declarations]]\n  name = "a"\n\n  [hooks.declarations.matcher]\n  # nothing yet\n';
    expect(setDeclarationValue(text, 0, ['matcher', 'tool_id'], '*')).toBe(
      text.replace('  [hooks.declarations.matcher]\n', '  [hooks.declarations.matcher]\n  tool_id = "*"\n'),
    );
  });

  it('indents a new sub-table like the declaration', () => {
    const next = setDeclarationValue(COMMENTED, 0, ['matcher', 'autonomy', 'run_id'], 'r');
    expect(next).toBe(
      COMMENTED.replace(
        '    tool_read_only = false\n',
        '    tool_read_only = false\n\n    [hooks.declarations.matcher.autonomy]\n    run_id = "r"\n',
      ),
    );
  });

  it('sets and removes keys of an env written as its own section', () => {
    const text = '[[hooks.declarations]]\nname = "x"\ncommand = "c"\n\n[hooks.declarations.env]\nA = "1"\n\n[ui]\n';
    const set = setDeclarationValue(text, 0, ['env', 'B'], '2');
    expect(set).toBe(text.replace('A = "1"\n', 'A = "1"\nB = "2"\n'));
    expect(unsetDeclarationValue(text, 0, ['env', 'A'])).toBe(
      '[[hooks.declarations]]\nname = "x"\ncommand = "c"\n\n[ui]\n',
    );
  });

  it('writes CRLF line breaks in a CRLF file', () => {
    const next = setDeclarationValue(crlf(SEED), 0, ['timeout'], '1s');
    expect(next).toBe(crlf(SEED).replace('required = true\r\n', 'required = true\r\ntimeout = "1s"\r\n'));
  });

  it('starts a new line first when the last line has no line break', () => {
    const text = '[[hooks.declarations]]\nname = "x"';
    expect(setDeclarationValue(text, 0, ['event'], 'tool.pre_call')).toBe(
      '[[hooks.declarations]]\nname = "x"\nevent = "tool.pre_call"\n',
    );
  });
});

describe('unsetDeclarationValue', () => {
  it('removes the key line and nothing else', () => {
    expect(unsetDeclarationValue(SEED, 1, ['timeout'])).toBe(SEED.replace('timeout = "3s"\n', ''));
  });

  it('removes a sub-table left empty, with the blank line before it', () => {
    const next = unsetDeclarationValue(SEED, 0, ['matcher', 'workspace_id']);
    expect(next).toBe(SEED.replace('\n[hooks.declarations.matcher]\nworkspace_id = "ws_checkout"\n', ''));
    // A sub-table followed by the next declaration's comment lines: those stay.
    const demo = unsetDeclarationValue(DEMO_WORKSPACE, 0, ['matcher', 'input_class']);
    expect(demo).toBe(DEMO_WORKSPACE.replace('\n[hooks.declarations.matcher]\ninput_class = "user"\n', ''));
  });

  it('keeps a sub-table that still has comments', () => {
    const text = '[[hooks.declarations]]\nname = "x"\n\n[hooks.declarations.matcher]\n# why\ntool_id = "*"\n';
    expect(unsetDeclarationValue(text, 0, ['matcher', 'tool_id'])).toBe(
      '[[hooks.declarations]]\nname = "x"\n\n[hooks.declarations.matcher]\n# why\n',
    );
  });

  it('removes the first, a middle or the last entry of an inline table, and an emptied one entirely', () => {
    const text = '[[hooks.declarations]]\nname = "x"\nenv = { A = "1", B = "2", C = "3" }\n';
    expect(unsetDeclarationValue(text, 0, ['env', 'A'])).toBe(text.replace('A = "1", ', ''));
    expect(unsetDeclarationValue(text, 0, ['env', 'B'])).toBe(text.replace('B = "2", ', ''));
    expect(unsetDeclarationValue(text, 0, ['env', 'C'])).toBe(text.replace(', C = "3"', ''));
    let all = text;
    for (const k of ['A', 'B', 'C']) all = unsetDeclarationValue(all, 0, ['env', k]);
    expect(all).toBe('[[hooks.declarations]]\nname = "x"\n');
    const nested = '[[hooks.declarations]]\nname = "x"\nexecutor = { command = "c", env = { A = "1" } }\n';
    expect(unsetDeclarationValue(nested, 0, ['executor', 'env', 'A'])).toBe(
      '[[hooks.declarations]]\nname = "x"\nexecutor = { command = "c" }\n',
    );
  });

  it('does nothing for a key that is not written', () => {
    expect(unsetDeclarationValue(SEED, 2, ['timeout'])).toBe(SEED);
    expect(unsetDeclarationValue(SEED, 2, ['matcher', 'tool_id'])).toBe(SEED);
  });
});

describe('deleteDeclarationBlock and appendDeclarationBlock', () => {
  const block = '[[hooks.declarations]]\nname = "added"\nevent = "tool.pre_call"\ncommand = "/bin/true"\n';

  it.each(Object.entries({ ...TEXTS, empty: '', blankLines: '\n\n', hostOnly: '[ui]\ntheme = "dark"\n' }))(
    'append then delete gives back %s byte for byte',
    (_name, text) => {
      const eolBlock = text.includes('\r\n') ? crlf(block) : block;
      const appended = appendDeclarationBlock(text, eolBlock);
      const layout = scanConfigLayout(appended);
      const index = layout.blocks.length - 1;
      expect(parse(appended)).toBeTruthy();
      const back = deleteDeclarationBlock(appended, index);
      expect(back).toBe(text);
    },
  );

  it('gives a last line without a line break one when appending after it', () => {
    const text = '[ui]\ntheme = "dark"';
    const appended = appendDeclarationBlock(text, block);
    expect(appended).toBe(`${text}\n\n${block}`);
    expect(deleteDeclarationBlock(appended, 0)).toBe(`${text}\n`);
  });

  it('appends after the last declaration, before tables that follow it', () => {
    const appended = appendDeclarationBlock(COMMENTED, block);
    expect(appended).toBe(
      COMMENTED.replace('\n# Retired: kept for reference.', `\n${block}\n# Retired: kept for reference.`),
    );
  });

  it('takes the comments directly above and one separating blank line', () => {
    const next = deleteDeclarationBlock(SEED, 1);
    const start = SEED.indexOf('\n# Complete Example');
    const end = SEED.indexOf('# Example HTTP wrapper');
    expect(next).toBe(SEED.slice(0, start + 1) + SEED.slice(end));
  });

  it('keeps the comment lines that lead into the next header, and trailing comments of the file stay with the last block', () => {
    const text =
      '[[hooks.declarations]]\nname = "a"\ncommand = "c"\n# about b\n[[hooks.declarations]]\nname = "b"\ncommand = "c"\n';
    expect(deleteDeclarationBlock(text, 0)).toBe('# about b\n[[hooks.declarations]]\nname = "b"\ncommand = "c"\n');
    const tail = '[[hooks.declarations]]\nname = "a"\ncommand = "c"\n# commented-out: timeout = "1s"\n\n[ui]\n';
    expect(deleteDeclarationBlock(tail, 0)).toBe('[ui]\n');
  });

  it('deletes a declaration whose multi-line string looks like a header', () => {
    const next = deleteDeclarationBlock(COMMENTED, 2);
    expect(next).not.toContain('session-log');
    expect(next).toContain('# Retired: kept for reference.\n# [[hooks.declarations]]');
    expect((parse(next) as { hooks: { declarations: unknown[] } }).hooks.declarations).toHaveLength(2);
  });
});

describe('formatDeclarationBlock', () => {
  it('writes the canonical style: top-level keys in order, maps inline, matcher tables as sections', () => {
    const text = formatDeclarationBlock({
      matcher: { autonomy: { workflow_id: 'release-*' }, tool_id: '*', tool_read_only: false },
      env: { POLICY: 'strict' },
      args: ['bash', './hooks/gate.sh'],
      command: '/usr/bin/env',
      timeout: '3s',
      priority: 700,
      required: true,
      mode: 'sync',
      event: 'tool.pre_call',
      name: 'gate',
    });
    expect(text).toBe(
      [
        '[[hooks.declarations]]',
        'name = "gate"',
        'event = "tool.pre_call"',
        'mode = "sync"',
        'required = true',
        'priority = 700',
        'timeout = "3s"',
        'command = "/usr/bin/env"',
        'args = ["bash", "./hooks/gate.sh"]',
        'env = { POLICY = "strict" }',
        '',
        '[hooks.declarations.matcher]',
        'tool_id = "*"',
        'tool_read_only = false',
        '',
        '[hooks.declarations.matcher.autonomy]',
        'workflow_id = "release-*"',
        '',
      ].join('\n'),
    );
  });

  it('leaves out the header of a matcher that holds only autonomy fields', () => {
    const text = formatDeclarationBlock({ name: 'x', matcher: { autonomy: { run_id: 'r' } } });
    expect(text).toBe('[[hooks.declarations]]\nname = "x"\n\n[hooks.declarations.matcher.autonomy]\nrun_id = "r"\n');
  });
});

describe('formatValue', () => {
  it.each([
    'plain',
    'with "quotes"',
    'back\\slash',
    "it's",
    'both \' and "',
    'tab\tand newline\n',
    'controls \u0000\u001f\u007f',
    'unicode é ✓ 🚀',
    '',
  ])('writes %j so that TOML reads it back unchanged', (s) => {
    expect((parse(`v = ${formatString(s)}`) as { v: string }).v).toBe(s);
  });

  it('prefers a literal string for patterns with backslashes or quotes', () => {
    expect(formatString('[\\*]')).toBe("'[\\*]'");
    expect(formatString('say "hi"')).toBe(`'say "hi"'`);
    expect(formatString('plain')).toBe('"plain"');
  });

  it('writes arrays, inline tables, booleans, big integers and quoted keys', () => {
    expect(formatValue(['a', 'b'])).toBe('["a", "b"]');
    expect(formatValue({})).toBe('{}');
    expect(formatValue({ 'odd key': true, n: 9007199254740993n })).toBe('{ "odd key" = true, n = 9007199254740993 }');
  });
});
