import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import {
  declarationNamesOf,
  editConfigText,
  hasSecretInput,
  type EditOutcome,
  type EditRequest,
} from '../../src/dialects/compozy/edit/declaration-edit.js';
import { validateConfigText } from '../../src/dialects/compozy/edit/validate-text.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');
const SEED = read('test/fixtures/edit/seed-config.toml');
const COMMENTED = read('test/fixtures/edit/commented.toml');
const DEMO_GLOBAL = read('fixtures/demo/home/.compozy/config.toml');
const DEMO_WORKSPACE = read('fixtures/demo/workspace/.compozy/config.toml');
const FILES: Record<string, string> = {
  seed: SEED,
  commented: COMMENTED,
  demoGlobal: DEMO_GLOBAL,
  demoWorkspace: DEMO_WORKSPACE,
};

function ok(outcome: EditOutcome): string {
  if (!outcome.ok) throw new Error(`refused: ${outcome.code}: ${outcome.message}`);
  return outcome.text;
}

type Decl = Record<string, unknown>;
function declarations(text: string): Decl[] {
  return ((parse(text) as { hooks?: { declarations?: Decl[] } }).hooks?.declarations ?? []) as Decl[];
}
const byName = (text: string, name: string): Decl | undefined => declarations(text).find((d) => d.name === name);

/** The lines that differ between two texts (same line count assumed around one changed region). */
function changedRegion(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { removed: a.slice(start, endA), added: b.slice(start, endB) };
}

const gate: EditRequest = {
  action: 'create',
  name: 'audit-writes',
  changes: [
    { path: ['event'], value: 'tool.pre_call' },
    { path: ['mode'], value: 'sync' },
    { path: ['timeout'], value: '2s' },
    { path: ['command'], value: '/usr/bin/env' },
    { path: ['args'], value: ['bash', './hooks/audit.sh'] },
    { path: ['env', 'LOG_LEVEL'], value: 'debug' },
    { path: ['matcher', 'tool_read_only'], value: false },
    { path: ['matcher', 'autonomy', 'workflow_id'], value: 'release-*' },
  ],
};

describe('create', () => {
  it.each(Object.entries(FILES))(
    'appends a canonical block to %s; delete gives back the original bytes',
    (_name, text) => {
      const created = ok(editConfigText(text, gate));
      expect(created.startsWith(text.slice(0, text.indexOf('[[hooks.declarations]]')))).toBe(true);
      expect(byName(created, 'audit-writes')).toEqual({
        name: 'audit-writes',
        event: 'tool.pre_call',
        mode: 'sync',
        timeout: '2s',
        command: '/usr/bin/env',
        args: ['bash', './hooks/audit.sh'],
        env: { LOG_LEVEL: 'debug' },
        matcher: { tool_read_only: false, autonomy: { workflow_id: 'release-*' } },
      });
      expect(ok(editConfigText(created, { action: 'delete', name: 'audit-writes' }))).toBe(text);
    },
  );

  it('writes the block in the documented canonical style', () => {
    expect(ok(editConfigText('', gate))).toBe(`[[hooks.declarations]]
name = "audit-writes"
event = "tool.pre_call"
mode = "sync"
timeout = "2s"
command = "/usr/bin/env"
args = ["bash", "./hooks/audit.sh"]
env = { LOG_LEVEL = "debug" }

[hooks.declarations.matcher]
tool_read_only = false

[hooks.declarations.matcher.autonomy]
workflow_id = "release-*"
`);
  });

  it('trims the name, and refuses a name the file already has', () => {
    const created = ok(editConfigText(SEED, { action: 'create', name: '  spaced  ', changes: [] }));
    expect(declarationNamesOf(created)).toContain('spaced');
    expect(editConfigText(SEED, { action: 'create', name: 'block-secret-file-edits', changes: [] })).toEqual({
      ok: false,
      code: 'hook_already_exists',
      message: 'hook "block-secret-file-edits" already exists',
    });
  });
});

describe('update', () => {
  it('changes one key and leaves every other byte', () => {
    const next = ok(
      editConfigText(SEED, {
        action: 'update',
        name: 'block-secret-file-edits',
        changes: [{ path: ['timeout'], value: '10s' }],
      }),
    );
    expect(changedRegion(SEED, next)).toEqual({ removed: ['timeout = "3s"'], added: ['timeout = "10s"'] });
    expect(next.length).toBe(SEED.length + 1);
  });

  it('edits command, args and env under [executor] when the declaration keeps them there', () => {
    const next = ok(
      editConfigText(SEED, {
        action: 'update',
        name: 'block-secret-file-edits',
        changes: [
          { path: ['command'], value: '/bin/sh' },
          { path: ['args'], value: ['./hooks/gate.sh'] },
          { path: ['env', 'MODE'], value: 'strict' },
        ],
      }),
    );
    const d = byName(next, 'block-secret-file-edits')!;
    expect(d.command).toBeUndefined();
    expect(d.executor).toEqual({
      kind: 'subprocess',
      command: '/bin/sh',
      args: ['./hooks/gate.sh'],
      env: { POLICY: 'secret-files', MODE: 'strict' },
    });
    expect(changedRegion(SEED, next)).toEqual({
      removed: [
        'command = "/usr/bin/env"',
        'args = ["bash", "./hooks/block-secret-file-edits.sh"]',
        'env = { POLICY = "secret-files" }',
      ],
      added: [
        'command = "/bin/sh"',
        'args = ["./hooks/gate.sh"]',
        'env = { POLICY = "secret-files", MODE = "strict" }',
      ],
    });
  });

  it('sets matcher keys one by one and removes keys with unset', () => {
    const next = ok(
      editConfigText(SEED, {
        action: 'update',
        name: 'block-secret-file-edits',
        changes: [
          { path: ['matcher', 'tool_id'], value: 'compozy__*' },
          { path: ['matcher', 'autonomy', 'run_id'], value: 'r-*' },
          { path: ['timeout'] },
          { path: ['matcher', 'tool_read_only'] },
        ],
      }),
    );
    const d = byName(next, 'block-secret-file-edits')!;
    expect(d.matcher).toEqual({ tool_id: 'compozy__*', autonomy: { run_id: 'r-*' } });
    expect(d.timeout).toBeUndefined();
    expect(byName(next, 'block-low-priority-claim')).toEqual(byName(SEED, 'block-low-priority-claim'));
  });

  it('keeps an autonomy field where an older file wrote it flat under matcher', () => {
    const text =
      '[[hooks.declarations]]\nname = "x"\nevent = "task.run.pre_claim"\ncommand = "c"\n\n[hooks.declarations.matcher]\nworkflow_id = "a"\n';
    const next = ok(
      editConfigText(text, {
        action: 'update',
        name: 'x',
        changes: [{ path: ['matcher', 'autonomy', 'workflow_id'], value: 'b' }],
      }),
    );
    expect(next).toBe(text.replace('workflow_id = "a"', 'workflow_id = "b"'));
  });

  it('reports no change when the values are already there', () => {
    const outcome = editConfigText(SEED, {
      action: 'update',
      name: 'block-secret-file-edits',
      changes: [{ path: ['timeout'], value: '3s' }],
    });
    expect(outcome).toEqual({ ok: true, text: SEED, changed: false });
  });

  it('changes the last declaration of a repeated name, the one in effect', () => {
    const text =
      '[[hooks.declarations]]\nname = "x"\ncommand = "a"\n\n[[hooks.declarations]]\nname = "x"\ncommand = "b"\n';
    const next = ok(
      editConfigText(text, { action: 'update', name: 'x', changes: [{ path: ['command'], value: 'c' }] }),
    );
    expect(next).toBe(text.replace('command = "b"', 'command = "c"'));
  });

  it('refuses a name the file lacks', () => {
    expect(
      editConfigText(SEED, { action: 'update', name: 'nope', changes: [{ path: ['timeout'], value: '1s' }] }),
    ).toMatchObject({
      ok: false,
      code: 'hook_not_found',
      message: expect.stringMatching(/^hook "nope" not found in target config overlay \(/) as unknown as string,
    });
  });
});

describe('delete', () => {
  it.each(Object.entries(FILES))('removes one declaration of %s and nothing of the others', (_name, text) => {
    for (const name of declarationNamesOf(text)) {
      const next = ok(editConfigText(text, { action: 'delete', name }));
      const rest = declarations(text).filter((d) => d.name !== name);
      expect(declarations(next)).toEqual(rest);
      const { hooks: _h1, ...otherBefore } = parse(text) as Record<string, unknown>;
      const { hooks: _h2, ...otherAfter } = parse(next) as Record<string, unknown>;
      expect(otherAfter).toEqual(otherBefore);
    }
  });

  it('removes the last declaration of a file, leaving its other content', () => {
    const text = '# my hooks\n\n[[hooks.declarations]]\nname = "only"\ncommand = "c"\n';
    expect(ok(editConfigText(text, { action: 'delete', name: 'only' }))).toBe('# my hooks\n');
    const withHooks = '[hooks]\nnote = "host key"\n\n[[hooks.declarations]]\nname = "only"\ncommand = "c"\n';
    expect(ok(editConfigText(withHooks, { action: 'delete', name: 'only' }))).toBe('[hooks]\nnote = "host key"\n');
  });

  it('removes every declaration of a repeated name', () => {
    const text =
      '[[hooks.declarations]]\nname = "x"\ncommand = "a"\n\n[[hooks.declarations]]\nname = "y"\ncommand = "b"\n\n[[hooks.declarations]]\nname = "x"\ncommand = "c"\n';
    expect(ok(editConfigText(text, { action: 'delete', name: 'x' }))).toBe(
      '[[hooks.declarations]]\nname = "y"\ncommand = "b"\n',
    );
  });

  it('refuses a name the file lacks', () => {
    expect(editConfigText(SEED, { action: 'delete', name: 'nope' })).toMatchObject({
      ok: false,
      code: 'hook_not_found',
    });
  });
});

describe('enable and disable', () => {
  it('disable adds enabled = false after mode; enable removes it: the round trip gives back the file', () => {
    const disabled = ok(editConfigText(SEED, { action: 'disable', name: 'block-secret-file-edits' }));
    expect(changedRegion(SEED, disabled)).toEqual({ removed: [], added: ['enabled = false'] });
    expect(disabled).toContain('mode = "sync"\nenabled = false\nrequired = true');
    expect(ok(editConfigText(disabled, { action: 'enable', name: 'block-secret-file-edits' }))).toBe(SEED);
  });

  it('changes nothing when the hook already is in that state', () => {
    expect(editConfigText(SEED, { action: 'enable', name: 'block-secret-file-edits' })).toEqual({
      ok: true,
      text: SEED,
      changed: false,
    });
    expect(editConfigText(DEMO_GLOBAL, { action: 'disable', name: 'notify-session-stopped' })).toEqual({
      ok: true,
      text: DEMO_GLOBAL,
      changed: false,
    });
  });

  it('flips an explicit enabled = true to false in place, and enable leaves true alone', () => {
    const text = '[[hooks.declarations]]\nname = "x"\nenabled = true  # on\ncommand = "c"\n';
    const off = ok(editConfigText(text, { action: 'disable', name: 'x' }));
    expect(off).toBe(text.replace('enabled = true', 'enabled = false'));
    expect(editConfigText(text, { action: 'enable', name: 'x' })).toMatchObject({ changed: false });
  });
});

describe('refusals', () => {
  it.each([
    ['a secret-like name', { path: ['env', 'GITHUB_TOKEN'], value: 'x' }],
    ['a secret-like name in any case', { path: ['env', 'my_api_key'], value: 'x' }],
    ['a token-like value', { path: ['env', 'UPSTREAM'], value: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }],
    ['a private key value', { path: ['env', 'KEYDATA'], value: '-----BEGIN OPENSSH PRIVATE KEY-----' }],
  ])('refuses %s in env', (_what, change) => {
    for (const action of ['create', 'update'] as const) {
      const outcome = editConfigText(SEED, {
        action,
        name: action === 'create' ? 'new' : 'block-secret-file-edits',
        changes: [change],
      });
      expect(outcome).toEqual({
        ok: false,
        code: 'hook_secret_input_forbidden',
        message: expect.stringMatching(
          /^hook executor env contains a forbidden secret-bearing input: env "[A-Z_a-z0-9]+" \(use --secret-env /,
        ) as unknown as string,
      });
    }
  });

  it('lets names that only point at a secret through', () => {
    expect(hasSecretInput([{ path: ['env', 'TOKEN_FILE'], value: '/run/secrets/t' }])).toBe(false);
    expect(hasSecretInput([{ path: ['env', 'WEBHOOK_URL'], value: 'https://example.test/x' }])).toBe(false);
  });

  it('refuses a file whose declarations are not [[hooks.declarations]] tables', () => {
    const text = '[hooks]\ndeclarations = [{ name = "x", command = "c" }]\n';
    expect(editConfigText(text, { action: 'delete', name: 'x' })).toMatchObject({
      ok: false,
      code: 'hook_config_layout_unsupported',
    });
  });

  it('refuses text that is not TOML', () => {
    expect(editConfigText('[[hooks.declarations]\n', { action: 'delete', name: 'x' })).toMatchObject({
      ok: false,
      code: 'hook_config_invalid',
    });
  });

  it('refuses, rather than writes, a text edit whose result would not mean the intended change', () => {
    // Inside an inline table written with dotted keys, adding `autonomy = {...}` would redefine autonomy.
    const text = '[[hooks.declarations]]\nname = "x"\nmatcher = { autonomy.run_id = "a" }\n';
    const outcome = editConfigText(text, {
      action: 'update',
      name: 'x',
      changes: [{ path: ['matcher', 'autonomy', 'loop_name'], value: 'b' }],
    });
    expect(outcome).toMatchObject({ ok: false, code: 'hook_edit_failed' });
  });
});

describe('what is kept', () => {
  it('keeps a byte order mark', () => {
    const text = `\uFEFF${SEED}`;
    const next = ok(editConfigText(text, { action: 'disable', name: 'notify-session-created' }));
    expect(next.startsWith('\uFEFF')).toBe(true);
    expect(ok(editConfigText(next, { action: 'enable', name: 'notify-session-created' }))).toBe(text);
  });

  it('keeps CRLF line breaks', () => {
    const text = SEED.replaceAll('\n', '\r\n');
    const next = ok(editConfigText(text, gate));
    expect(next.replaceAll('\r\n', '')).not.toContain('\n');
    expect(ok(editConfigText(next, { action: 'delete', name: 'audit-writes' }))).toBe(text);
  });

  it('every update of the commented file keeps it valid and changes only its declaration', () => {
    const changes: EditRequest[] = [
      {
        action: 'update',
        name: 'guard-secrets',
        changes: [
          { path: ['timeout'], value: '1s' },
          { path: ['env', 'A'], value: '1' },
        ],
      },
      {
        action: 'update',
        name: 'house-style',
        changes: [
          { path: ['args'], value: ['x'] },
          { path: ['matcher', 'workspace_id'], value: 'w' },
        ],
      },
      {
        action: 'update',
        name: 'session-log',
        changes: [{ path: ['secret_env', 'LOG_TOKEN'] }, { path: ['matcher', 'workspace_id'], value: 'w' }],
      },
      { action: 'disable', name: 'house-style' },
      { action: 'enable', name: 'session-log' },
    ];
    for (const request of changes) {
      const next = ok(editConfigText(COMMENTED, request));
      const errors = validateConfigText(next, '/x/config.toml', { cwd: '/x', global: true }).filter(
        (d) => d.severity === 'error',
      );
      expect(errors).toEqual([]);
      const others = (t: string) => declarations(t).filter((d) => d.name !== request.name);
      expect(others(next)).toEqual(others(COMMENTED));
      const { hooks: _a, ...hostBefore } = parse(COMMENTED) as Record<string, unknown>;
      const { hooks: _b, ...hostAfter } = parse(next) as Record<string, unknown>;
      expect(hostAfter).toEqual(hostBefore);
    }
  });
});

describe('random sequences of changes', () => {
  /** A deterministic pseudo-random generator (mulberry32). */
  function rng(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const keys: string[][] = [
    ['timeout'],
    ['priority'],
    ['mode'],
    ['required'],
    ['args'],
    ['command'],
    ['env', 'A'],
    ['env', 'B'],
    ['env', 'POLICY'],
    ['matcher', 'tool_id'],
    ['matcher', 'workspace_id'],
    ['matcher', 'input_class'],
    ['matcher', 'autonomy', 'run_id'],
    ['matcher', 'autonomy', 'workflow_id'],
    ['metadata', 'owner'],
    ['secret_env', 'LOG_TOKEN'],
  ];
  const valueFor = (path: string[], random: () => number) => {
    const n = Math.floor(random() * 100);
    if (path[0] === 'priority') return n;
    if (path[0] === 'required') return random() > 0.5;
    if (path[0] === 'args') return Array.from({ length: n % 3 }, (_, i) => `a${i}`);
    if (path[0] === 'mode') return random() > 0.5 ? 'sync' : 'async';
    if (path[0] === 'timeout') return `${n}ms`;
    if (path[0] === 'secret_env') return `env:V${n}`;
    return `v-${n}`;
  };

  it.each(Object.entries(FILES))(
    'every edit of %s means exactly what was asked (the self-check never trips)',
    (_name, text) => {
      const random = rng(42);
      const names = declarationNamesOf(text);
      let current = text;
      for (let step = 0; step < 200; step++) {
        const name = names[Math.floor(random() * names.length)]!;
        const changes = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const path = keys[Math.floor(random() * keys.length)]!;
          return random() < 0.35 ? { path } : { path, value: valueFor(path, random) };
        });
        const request: EditRequest =
          random() < 0.1
            ? { action: random() < 0.5 ? 'disable' : 'enable', name }
            : { action: 'update', name, changes };
        const outcome = editConfigText(current, request);
        if (!outcome.ok)
          throw new Error(`step ${step}: ${outcome.code}: ${outcome.message}\n${JSON.stringify(request)}`);
        current = outcome.text;
      }
      // And every declaration can still be deleted, leaving the host tables as they were.
      for (const name of names) current = ok(editConfigText(current, { action: 'delete', name }));
      const { hooks: _a, ...hostBefore } = parse(text) as Record<string, unknown>;
      const { hooks: _b, ...hostAfter } = parse(current) as Record<string, unknown>;
      expect(hostAfter).toEqual(hostBefore);
      expect(declarationNamesOf(current)).toEqual([]);
    },
  );
});
