// Security (SPEC §2.1 env/secret_env, §2.4 extension root, §3.4 environment/no shell/stderr, §7
// "Safe"): what a compozy hook can see, what a declaration may hold, what records and errors may
// contain, where an extension command may point, and that arguments never meet a shell.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../src/ledger/record.js';
import {
  COMPOZY_PAYLOAD,
  COSH_PAYLOAD,
  compozyToml,
  makeBox,
  parseJson,
  shQuote,
  STACK_FRAME,
  type Box,
} from './support.js';

/** SPEC §3.4: the only variables a compozy hook inherits. */
const ALLOWLIST = [
  'COMSPEC',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LOGNAME',
  'PATH',
  'PATHEXT',
  'SHELL',
  'SYSTEMROOT',
  'TEMP',
  'TERM',
  'TMP',
  'TMPDIR',
  'USER',
  'USERPROFILE',
];

const SECRETS: Record<string, string> = {
  GITHUB_TOKEN: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  MY_PASSWORD: 'hunter2-but-longer',
  OPENAI_API_KEY: 'sk-proj-0123456789abcdefghijklmnop',
  LD_PRELOAD: '/nonexistent/hookctl-test-preload.so',
  NODE_OPTIONS: '--max-old-space-size=1024',
  BASH_ENV: '/nonexistent/hookctl-test-bash-env',
  SSH_AUTH_SOCK: '/nonexistent/hookctl-test-agent.sock',
  PYTHONPATH: '/nonexistent/hookctl-test-python',
};

describe.concurrent('the environment of a compozy hook', () => {
  it('holds only the allowlist, the declared env, the resolved secret_env and HOOKCTL_DISPATCH_DEPTH: no invoking secret leaks', async () => {
    const box = makeBox();
    const dump = join(box.out, 'env.json');
    box.writeCompozy([
      {
        name: 'dump',
        event: 'tool.pre_call',
        mode: 'sync',
        command: box.hook('dump-env.mjs'),
        args: [dump],
        env: { POLICY: 'strict' },
        secret_env: { API_TOKEN: 'env:GITHUB_TOKEN' },
      },
    ]);
    const env = { ...box.env, ...SECRETS, USER: 'tester', TERM: 'xterm', HOOKCTL_NOT_ALLOWED: 'x' };
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'env'], { env, input: COMPOZY_PAYLOAD });
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(res.code, res.stderr).toBe(0);
    const seen = parseJson<Record<string, string>>(readFileSync(dump, 'utf8'));

    const allowed = new Set([...ALLOWLIST, 'POLICY', 'API_TOKEN', 'HOOKCTL_DISPATCH_DEPTH']);
    expect(Object.keys(seen).filter((k) => !allowed.has(k))).toEqual([]);
    // Everything allowlisted that the invoking environment had is there, unchanged.
    for (const name of ALLOWLIST)
      if (env[name as keyof typeof env] !== undefined) expect(seen[name]).toBe(env[name as keyof typeof env]);
    expect(seen).toMatchObject({ POLICY: 'strict', API_TOKEN: SECRETS.GITHUB_TOKEN, HOOKCTL_DISPATCH_DEPTH: '1' });
    // No secret value under any other name either.
    for (const [name, value] of Object.entries(seen)) {
      if (name === 'API_TOKEN') continue;
      for (const secret of Object.values(SECRETS)) expect(value, `${name} carries a secret`).not.toContain(secret);
    }
    // hookctl's own locations are not the hook's business.
    expect(seen).not.toHaveProperty('COMPOZY_HOME');
    expect(seen).not.toHaveProperty('COSH_HOME');
  });
});

describe.concurrent('secret-like names in env are rejected by validate, and fire refuses', () => {
  const REJECTED = [
    'GITHUB_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'MY_PASSWORD',
    'OPENAI_API_KEY',
    'db_passwd',
    'Authorization',
    'BEARER',
    'GCP_CREDENTIALS',
    'SSH_PRIVATE_KEY',
    'MyApiKey',
  ];
  const ACCEPTED = [
    'TOKEN_URL',
    'SECRET_FILE',
    'PASSWORD_PATH',
    'CREDENTIALS_DIR',
    'API_KEY_URI',
    'MONKEY',
    'LOG_LEVEL',
  ];

  it('config.toml: one error per secret-like name, none for names ending _URL/_URI/_PATH/_FILE/_DIR; fire exits 2, runs and records nothing', async () => {
    const box = makeBox();
    const marker = join(box.out, 'ran');
    const env = Object.fromEntries([...REJECTED, ...ACCEPTED].map((k) => [k, 'literal']));
    box.writeCompozy([
      {
        name: 'leaky',
        event: 'tool.pre_call',
        mode: 'sync',
        command: box.hook('touch-marker.sh'),
        args: [marker],
        env,
      },
    ]);
    const validate = await box.cli(['hooks', 'validate', '-o', 'json']);
    expect(validate.stderr).not.toMatch(STACK_FRAME);
    expect(validate.code).toBe(1);
    const report = parseJson<{ diagnostics: { code: string; message: string }[] }>(validate.stdout);
    const secretDiags = report.diagnostics.filter((d) => d.code === 'secret_env_name');
    expect(secretDiags.map((d) => d.message).sort()).toEqual(
      REJECTED.map((k) => `hooks: hook "leaky" env.${k} must move secret-like values to secret_env`).sort(),
    );
    expect(report.diagnostics.filter((d) => d.code !== 'secret_env_name')).toEqual([]);

    const fire = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'leaky'], { input: COMPOZY_PAYLOAD });
    expect(fire.stderr).not.toMatch(STACK_FRAME);
    expect(fire.code).toBe(2);
    expect(fire.stderr).toMatch(/refusing to fire "tool\.pre_call"/);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(box.logFile('compozy', 'leaky'))).toBe(false);
  });

  it('extension manifests, AGENT.md and SKILL.md too; an extension reading a secret through {{env:NAME}} is rejected', async () => {
    const box = makeBox();
    const ext = join(box.compozyHome, 'extensions', 'leaky-ext');
    mkdirSync(join(ext, 'hooks'), { recursive: true });
    cpSync(box.hook('emit.sh'), join(ext, 'hooks', 'emit.sh'));
    writeFileSync(
      join(ext, 'extension.toml'),
      [
        '[extension]',
        'name = "leaky-ext"',
        'version = "1.0.0"',
        '',
        '[[resources.hooks]]',
        'name = "ext-env"',
        'event = "tool.pre_call"',
        'command = "./hooks/emit.sh"',
        'env = { GITHUB_TOKEN = "x" }',
        '',
        '[[resources.hooks]]',
        'name = "ext-template"',
        'event = "tool.pre_call"',
        'command = "./hooks/emit.sh"',
        'args = ["{{env:OPENAI_API_KEY}}"]',
        '',
      ].join('\n'),
    );
    const agent = join(box.workspace, '.compozy', 'agents', 'helper');
    mkdirSync(agent, { recursive: true });
    writeFileSync(
      join(agent, 'AGENT.md'),
      '---\nname: helper\nhooks:\n  - name: agent-env\n    event: tool.pre_call\n    command: /bin/true\n    env:\n      MY_PASSWORD: x\n---\n',
    );
    const skill = join(box.workspace, '.compozy', 'skills', 'leaky-skill');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: leaky-skill\nmetadata:\n  compozy:\n    hooks:\n      - event: tool.pre_call\n        command: /bin/true\n        env:\n          AWS_SECRET_ACCESS_KEY: x\n---\n',
    );
    const validate = await box.cli(['hooks', 'validate', '-o', 'json'], { env: { ...box.env, ...SECRETS } });
    expect(validate.stderr).not.toMatch(STACK_FRAME);
    expect(validate.code).toBe(1);
    const report = parseJson<{ diagnostics: { code: string; message: string; hook: string | null }[] }>(
      validate.stdout,
    );
    const found = report.diagnostics.map((d) => `${d.hook}: ${d.code}: ${d.message}`);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^ext-env: secret_env_name: .*env\.GITHUB_TOKEN must move secret-like values to secret_env$/,
        ),
        expect.stringMatching(
          /^ext-template: env_template_secret: .*env template "OPENAI_API_KEY" must use secret_env/,
        ),
        expect.stringMatching(
          /^agent-env: secret_env_name: .*env\.MY_PASSWORD must move secret-like values to secret_env$/,
        ),
        expect.stringMatching(
          /^leaky-skill: secret_env_name: .*env\.AWS_SECRET_ACCESS_KEY must move secret-like values to secret_env$/,
        ),
      ]),
    );
    // The secret's value is never echoed in a diagnostic.
    for (const value of Object.values(SECRETS)) expect(validate.stdout).not.toContain(value);
    const fire = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'leaky'], {
      env: { ...box.env, ...SECRETS },
      input: COMPOZY_PAYLOAD,
    });
    expect(fire.code).toBe(2);
    expect(existsSync(box.logFile('compozy', 'leaky'))).toBe(false);
  });

  it('hooks create refuses a secret-like env name or a token-looking value (hook_secret_input_forbidden) and leaves the file alone', async () => {
    const box = makeBox();
    box.writeCompozy([{ name: 'keep', event: 'tool.pre_call', command: '/bin/true' }]);
    const config = join(box.workspace, '.compozy', 'config.toml');
    const before = readFileSync(config, 'utf8');
    for (const env of ['GITHUB_TOKEN=abc', `NOTE=${SECRETS.GITHUB_TOKEN}`]) {
      const res = await box.cli([
        'hooks',
        'create',
        'sneaky',
        '--event',
        'tool.pre_call',
        '--command',
        '/bin/true',
        '--env',
        env,
        '-o',
        'json',
      ]);
      expect(res.stderr).not.toMatch(STACK_FRAME);
      expect(res.code, `${env}: ${res.stdout}${res.stderr}`).toBe(1);
      expect(parseJson<{ error: { code: string; message: string } }>(res.stdout).error).toMatchObject({
        code: 'hook_secret_input_forbidden',
        message: expect.stringMatching(
          /^hook executor env contains a forbidden secret-bearing input: env "[A-Z_a-z0-9]+" \(use --secret-env /,
        ) as unknown as string,
      });
      expect(res.stdout + res.stderr).not.toContain(SECRETS.GITHUB_TOKEN);
      expect(readFileSync(config, 'utf8')).toBe(before);
    }
  });
});

describe.concurrent('stderr content never appears in records or errors', () => {
  const MARKER = 'STDERR-MARKER-7f3a9c';
  /** What the hooks write to stderr; the marker is in no declaration, only in this file. */
  const stderrFile = (box: Box) => {
    const file = join(box.out, 'stderr.txt');
    writeFileSync(file, `secret diagnostics: ${MARKER}\n`);
    return file;
  };
  const STDERR_BYTES = `secret diagnostics: ${MARKER}\n`.length;

  /** Every place a user or a log could see: the ledger, fire's outputs, runs, info. */
  async function everything(
    box: Box,
    dialect: 'compozy' | 'cosh',
    event: string,
    input: string,
    names: string[],
  ): Promise<string> {
    const outputs: string[] = [];
    for (const format of ['json', 'human']) {
      const res = await box.cli(['hooks', 'fire', event, '--session', `s-${format}`, '-o', format], { input });
      expect(res.stderr).not.toMatch(STACK_FRAME);
      outputs.push(res.stdout, res.stderr, readFileSync(box.logFile(dialect, `s-${format}`), 'utf8'));
    }
    // The readers, at once: the human table of runs and every named hook's info with its last runs.
    const reads = await Promise.all(
      [['hooks', 'runs', '--session', 's-json'], ...names.map((n) => ['hooks', 'info', n, '-o', 'json'])].map((args) =>
        box.cli(args),
      ),
    );
    for (const res of reads) outputs.push(res.stdout, res.stderr);
    return outputs.join('\n');
  }

  it('compozy: failed, timed-out, bad-patch, async and required hooks that write to stderr: only the byte count is kept', async () => {
    const box = makeBox();
    const script = box.hook('stderr-marker.sh');
    const text = stderrFile(box);
    box.writeCompozy([
      { name: 'exit3', event: 'tool.pre_call', mode: 'sync', priority: 50, command: script, args: [text, '3'] },
      {
        name: 'bad-patch',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 40,
        command: script,
        args: [text, '0', 'not json'],
      },
      {
        name: 'slow',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 30,
        timeout: '300ms',
        command: '/bin/sh',
        args: ['-c', 'cat "$0" >&2; sleep 5', text],
      },
      { name: 'async-fail', event: 'tool.pre_call', mode: 'async', command: script, args: [text, '4'] },
      {
        name: 'required',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 10,
        required: true,
        command: script,
        args: [text, '5'],
      },
    ]);
    const seen = await everything(box, 'compozy', 'tool.pre_call', COMPOZY_PAYLOAD, ['exit3', 'required']);
    expect(seen).not.toContain(MARKER);
    const records = box.records('compozy', 's-json');
    const by = Object.fromEntries(records.map((r: RunRecord) => [r.hook_name, r]));
    expect(by.exit3).toMatchObject({
      outcome: 'failed',
      stderr_bytes: STDERR_BYTES,
      error: `hook command failed: exit status 3 (stderr: ${STDERR_BYTES} bytes)`,
    });
    expect(by.required).toMatchObject({ outcome: 'failed', stderr_bytes: STDERR_BYTES });
    expect(by.slow).toMatchObject({ outcome: 'failed', timed_out: true, stderr_bytes: STDERR_BYTES });
    expect(by['bad-patch']).toMatchObject({ outcome: 'failed', stderr_bytes: STDERR_BYTES });
  });

  it('cosh: failed and blocking hooks that write to stderr: only the byte count is kept', async () => {
    const box = makeBox();
    const text = stderrFile(box);
    const script = (code: string, out = '') =>
      `${shQuote(box.hook('stderr-marker.sh'))} ${shQuote(text)} ${code} ${shQuote(out)}`;
    box.writeCosh('PreToolUse', [
      { name: 'exit3', command: script('3') },
      { name: 'bad-json', command: script('0', 'not json') },
      { name: 'blocker', command: script('0', '{"decision":"block","reason":"policy"}') },
    ]);
    const seen = await everything(box, 'cosh', 'PreToolUse', COSH_PAYLOAD, ['exit3', 'blocker']);
    expect(seen).not.toContain(MARKER);
    const [exit3, badJson, blocker] = box.records('cosh', 's-json');
    expect(exit3).toMatchObject({
      outcome: 'failed',
      exit_code: 3,
      stderr_bytes: STDERR_BYTES,
      error: `hook command failed: exit status 3 (stderr: ${STDERR_BYTES} bytes)`,
    });
    expect(badJson).toMatchObject({ outcome: 'failed', stderr_bytes: STDERR_BYTES });
    expect(blocker).toMatchObject({ outcome: 'denied', decision: 'block', stderr_bytes: STDERR_BYTES });
  });
});

describe.concurrent('extension commands cannot escape their root', () => {
  function extension(box: Box, name: string, command: string, json = false): string {
    const root = join(box.compozyHome, 'extensions', name);
    mkdirSync(join(root, 'hooks'), { recursive: true });
    if (json) {
      writeFileSync(
        join(root, 'extension.json'),
        JSON.stringify({
          extension: { name, version: '1.0.0' },
          resources: {
            hooks: [{ name: `${name}-hook`, event: 'tool.pre_call', command, args: [join(box.out, `${name}.ran`)] }],
          },
        }),
      );
    } else {
      writeFileSync(
        join(root, 'extension.toml'),
        compozyToml([
          { name: `${name}-hook`, event: 'tool.pre_call', command, args: [join(box.out, `${name}.ran`)] },
        ]).replace(
          '[[hooks.declarations]]',
          `[extension]\nname = ${JSON.stringify(name)}\nversion = "1.0.0"\n\n[[resources.hooks]]`,
        ),
      );
    }
    return root;
  }

  interface Diag {
    severity: string;
    message: string;
    hook: string | null;
  }

  /** An error on the extension's hook that names the escape and the root. */
  function reportsEscape(box: Box, diagnostics: Diag[], name: string): boolean {
    const root = join(box.compozyHome, 'extensions', name);
    return diagnostics.some(
      (d) =>
        d.severity === 'error' &&
        d.hook === `${name}-hook` &&
        d.message.includes('escapes extension root') &&
        d.message.includes(JSON.stringify(root)),
    );
  }

  function outsideDir(box: Box): string {
    const outside = join(box.root, 'outside');
    mkdirSync(outside, { recursive: true });
    cpSync(box.hook('touch-marker.sh'), join(outside, 'touch-marker.sh'));
    return outside;
  }

  it('by "..", by {{config_dir}}/.., by a symbolic link to a file or a folder outside: validate reports each, fire refuses, nothing outside runs', async () => {
    const box = makeBox();
    const outside = outsideDir(box);
    const cases: Record<string, string> = {
      dotdot: '../../../outside/touch-marker.sh',
      'nested-dotdot': './hooks/../../../../outside/touch-marker.sh',
      'config-dir': '{{config_dir}}/../../../outside/touch-marker.sh',
      'file-link': './hooks/link.sh',
      'dir-link': './linkdir/touch-marker.sh',
      'json-file-link': './hooks/link.sh',
    };
    for (const [name, command] of Object.entries(cases)) {
      const root = extension(box, name, command, name.startsWith('json'));
      if (name.endsWith('file-link')) symlinkSync(join(outside, 'touch-marker.sh'), join(root, 'hooks', 'link.sh'));
      if (name === 'dir-link') symlinkSync(outside, join(root, 'linkdir'));
    }
    // A link that stays inside the root is fine: the check is about where it points.
    const good = extension(box, 'inside-link', './hooks/inside.sh');
    cpSync(box.hook('touch-marker.sh'), join(good, 'hooks', 'real.sh'));
    symlinkSync(join(good, 'hooks', 'real.sh'), join(good, 'hooks', 'inside.sh'));

    const validate = await box.cli(['hooks', 'validate', '-o', 'json']);
    expect(validate.stderr).not.toMatch(STACK_FRAME);
    expect(validate.code).toBe(1);
    const diagnostics = parseJson<{ diagnostics: Diag[] }>(validate.stdout).diagnostics;
    for (const name of Object.keys(cases)) {
      expect(
        reportsEscape(box, diagnostics, name),
        `${name}: ${JSON.stringify(diagnostics.filter((d) => d.hook === `${name}-hook`))}`,
      ).toBe(true);
    }
    expect(diagnostics.filter((d) => d.hook === 'inside-link-hook' && d.severity === 'error')).toEqual([]);

    const fire = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'escape'], { input: COMPOZY_PAYLOAD });
    expect(fire.stderr).not.toMatch(STACK_FRAME);
    expect(fire.code).toBe(2);
    expect(fire.stderr).toMatch(/escapes extension root/);
    expect(readdirSync(box.out).filter((f) => f.endsWith('.ran'))).toEqual([]);
    expect(existsSync(box.logFile('compozy', 'escape'))).toBe(false);
  });

  it('by a dangling symbolic link that points outside: validate reports the escape, and fire refuses once the target exists', async () => {
    const box = makeBox();
    const outside = outsideDir(box);
    const root = extension(box, 'dangling-link', './hooks/later.sh');
    symlinkSync(join(outside, 'created-later.sh'), join(root, 'hooks', 'later.sh'));

    const validate = await box.cli(['hooks', 'validate', '-o', 'json']);
    expect(validate.stderr).not.toMatch(STACK_FRAME);
    const diagnostics = parseJson<{ diagnostics: Diag[] }>(validate.stdout).diagnostics;
    // The target appears after validation (an attacker's second step): fire must refuse anyway.
    cpSync(box.hook('touch-marker.sh'), join(outside, 'created-later.sh'));
    const fire = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'escape'], { input: COMPOZY_PAYLOAD });
    expect(fire.stderr).not.toMatch(STACK_FRAME);
    expect(fire.code).toBe(2);
    expect(fire.stderr).toMatch(/escapes extension root/);
    expect(readdirSync(box.out).filter((f) => f.endsWith('.ran'))).toEqual([]);
    // Validation before the target exists already knows where the link points.
    expect(reportsEscape(box, diagnostics, 'dangling-link'), JSON.stringify(diagnostics)).toBe(true);
    expect(validate.code).toBe(1);
  });
});

describe.concurrent('compozy hook commands never pass through a shell', () => {
  it('arguments with ; $( ) ` && | > * $VAR quotes and newlines arrive verbatim; no side effect happens', async () => {
    const box = makeBox();
    const side = (n: number) => join(box.out, `side${n}`);
    const args = [
      `a; touch ${side(1)}`,
      `$(touch ${side(2)})`,
      `\`touch ${side(3)}\``,
      `x && touch ${side(4)}`,
      `| touch ${side(5)}`,
      `> ${side(6)}`,
      '$HOME',
      '${PATH}',
      '*',
      "'single'",
      '"double"',
      'line1\nline2',
      '',
      '  spaced  ',
      '\\backslash',
      '%s%n',
      '-c',
    ];
    const argvFile = join(box.out, 'argv.json');
    const envFile = join(box.out, 'env.json');
    box.writeCompozy([
      {
        name: 'argv',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 30,
        command: box.hook('argv.mjs'),
        args: [argvFile, ...args],
      },
      {
        name: 'env',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 20,
        command: box.hook('dump-env.mjs'),
        args: [envFile],
        env: { TRICK: `$(touch ${side(7)})` },
      },
      // A command string with shell syntax is one (missing) file name, not a command line.
      {
        name: 'cmdline',
        event: 'tool.pre_call',
        mode: 'sync',
        priority: 10,
        command: `${box.hook('touch-marker.sh')} ${side(8)}; touch ${side(9)}`,
      },
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'noshell'], {
      input: COMPOZY_PAYLOAD,
      cwd: box.out,
    });
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(res.code, res.stderr).toBe(0);
    expect(parseJson<string[]>(readFileSync(argvFile, 'utf8'))).toEqual(args);
    expect(parseJson<Record<string, string>>(readFileSync(envFile, 'utf8')).TRICK).toBe(`$(touch ${side(7)})`);
    const records = box.records('compozy', 'noshell');
    expect(records.find((r) => r.hook_name === 'cmdline')).toMatchObject({ outcome: 'failed' });
    expect(records.find((r) => r.hook_name === 'cmdline')!.error).toMatch(/resolve executable/);
    for (let n = 1; n <= 9; n++) expect(existsSync(side(n)), `side effect ${n}`).toBe(false);
    expect(readdirSync(box.out).sort()).toEqual(['argv.json', 'env.json']);
  });
});

describe.concurrent('session ids cannot leave the sessions folder; the log is private', () => {
  it('--session or a payload session_id with "/" or ".." is refused (exit 2) and nothing is written; a log file is mode 0600', async () => {
    const box = makeBox();
    box.writeCompozy([
      { name: 'ok', event: 'tool.pre_call', mode: 'sync', command: box.hook('emit.sh'), args: ['{}'] },
    ]);
    for (const [args, input] of [
      [['--session', '../../escaped'], COMPOZY_PAYLOAD],
      [['--session', '..'], COMPOZY_PAYLOAD],
      [['--session', 'a/b'], COMPOZY_PAYLOAD],
      [[], '{"session_id":"../../escaped"}'],
    ] as const) {
      const res = await box.cli(['hooks', 'fire', 'tool.pre_call', ...args], { input });
      expect(res.stderr).not.toMatch(STACK_FRAME);
      expect(res.code, res.stderr).toBe(2);
    }
    expect(existsSync(join(box.root, 'escaped'))).toBe(false);
    expect(existsSync(join(box.compozyHome, 'escaped'))).toBe(false);
    expect(existsSync(join(box.compozyHome, 'sessions'))).toBe(false);
    const runs = await box.cli(['hooks', 'runs', '--session', '../../etc']);
    expect(runs.stderr).not.toMatch(STACK_FRAME);
    expect([0, 2]).toContain(runs.code);

    const ok = await box.cli(['hooks', 'fire', 'tool.pre_call', '--session', 'fine'], { input: COMPOZY_PAYLOAD });
    expect(ok.code, ok.stderr).toBe(0);
    expect(statSync(box.logFile('compozy', 'fine')).mode & 0o777).toBe(0o600);
  });
});
