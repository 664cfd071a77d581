// `hooks validate` end to end (SPEC §2, §6): the built CLI on fixtures/broken reports every row
// of fixtures/broken/EXPECTED.md with its file:line and message and nothing else; the report
// formats (human, json, github, sarif); --strict; named files; bad input that never crashes;
// the JSON Schemas wired in next to the rules; and docs/DIAGNOSTICS.md listing every code.
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoDir, demoEnv, isolatedEnv, repoRoot, runCli } from '../support/cli.js';
import { DIAGNOSTIC_CODES } from '../../src/declarations/codes.js';
import { COSH_DIAGNOSTIC_CODES } from '../../src/dialects/cosh/codes.js';
import { SCHEMA_CODES } from '../../src/validate/schema-codes.js';
import { CLAUDE_DIAGNOSTIC_CODES } from '../../src/dialects/claude/codes.js';
import { CODEX_DIAGNOSTIC_CODES } from '../../src/dialects/codex/codes.js';
import { tempDir } from '../support/temp.js';

const brokenDir = join(repoRoot, 'fixtures', 'broken');
const brokenEnv = () =>
  isolatedEnv({
    compozyHome: join(brokenDir, 'home', '.compozy'),
    coshHome: join(brokenDir, 'home', '.copilot-shell'),
    systemRoot: join(brokenDir, 'system'),
  });
const BROKEN_W = ['--workspace', join(brokenDir, 'workspace')];
const DEMO_W = ['--workspace', join(demoDir, 'workspace'), '--additional-dir', join(demoDir, 'extra')];

interface JsonDiagnostic {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  file: string;
  line: number;
  column: number | null;
  source: string | null;
  hook: string | null;
}

interface JsonReport {
  files: string[];
  errors: number;
  warnings: number;
  diagnostics: JsonDiagnostic[];
}

/** One row of fixtures/broken/EXPECTED.md: `message` exact, or every `contains` part. */
interface Expected {
  file: string;
  line: number;
  severity: 'error' | 'warning';
  code: string;
  message?: string;
  contains?: string[];
  hook?: string;
  column?: number;
}

const B = 'fixtures/broken/';
const EXPECTED: Expected[] = [
  // home/.compozy/config.toml
  {
    file: 'home/.compozy/config.toml',
    line: 8,
    severity: 'error',
    code: 'unknown_field',
    contains: ['retries'],
    hook: 'unknown-key',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 12,
    severity: 'error',
    code: 'invalid_event',
    message: 'hooks: invalid hook event "tool.before_call"',
    hook: 'unknown-event',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 18,
    severity: 'error',
    code: 'invalid_mode',
    message: 'hooks: invalid hook mode "blocking"',
    hook: 'bad-mode',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 24,
    severity: 'error',
    code: 'sync_on_async_event',
    message: 'hooks: hook "sync-on-async-only" cannot use sync mode for async-only event "message.delta"',
    hook: 'sync-on-async-only',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 31,
    severity: 'error',
    code: 'required_async',
    message: 'hooks: hook "required-async" cannot be required in async mode',
    hook: 'required-async',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 37,
    severity: 'error',
    code: 'priority_out_of_range',
    message: 'hooks: priority 2147483648 is outside int32 range',
    hook: 'huge-priority',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 43,
    severity: 'error',
    code: 'negative_timeout',
    message: 'hooks: hook "negative-timeout" timeout must be non-negative',
    hook: 'negative-timeout',
  },
  {
    file: 'home/.compozy/config.toml',
    line: 49,
    severity: 'error',
    code: 'invalid_timeout',
    contains: ['5 seconds'],
    hook: 'non-duration-timeout',
  },
  // workspace/.compozy/config.toml
  {
    file: 'workspace/.compozy/config.toml',
    line: 11,
    severity: 'error',
    code: 'matcher_field_not_allowed',
    message: 'hooks: matcher fields [tool_name] are not valid for event "tool.pre_call"',
    hook: 'wrong-family-field',
  },
  {
    file: 'workspace/.compozy/config.toml',
    line: 21,
    severity: 'error',
    code: 'invalid_matcher_pattern',
    message: 'hooks: matcher.tool_id pattern "compozy__fs_[" is invalid: syntax error in pattern',
    hook: 'bad-pattern',
  },
  {
    file: 'workspace/.compozy/config.toml',
    line: 30,
    severity: 'error',
    code: 'matcher_field_not_allowed',
    message: 'hooks: matcher fields [agent_type] are not valid for event "session.post_create"',
    hook: 'agent-type',
  },
  {
    file: 'workspace/.compozy/config.toml',
    line: 36,
    severity: 'error',
    code: 'secret_env_name',
    message: 'hooks: hook "secret-env" env.API_TOKEN must move secret-like values to secret_env',
    hook: 'secret-env',
  },
  {
    file: 'workspace/.compozy/config.toml',
    line: 44,
    severity: 'error',
    code: 'executor_fields_conflict',
    message: 'hook executor fields must be declared either at the top level or under executor, not both',
    hook: 'both-command-forms',
  },
  {
    file: 'workspace/.compozy/config.toml',
    line: 53,
    severity: 'error',
    code: 'executor_not_implemented',
    message: 'hooks: executor not implemented',
    hook: 'http-executor',
  },
  // extensions
  {
    file: 'home/.compozy/extensions/bad-toml/extension.toml',
    line: 9,
    column: 8,
    severity: 'error',
    code: 'toml_parse_error',
    contains: ['invalid TOML'],
  },
  {
    file: 'home/.compozy/extensions/bad-json/extension.json',
    line: 9,
    column: 84,
    severity: 'error',
    code: 'json_parse_error',
    contains: ['invalid JSON', "trailing comma before '}'"],
  },
  {
    file: 'home/.compozy/extensions/escaper/extension.toml',
    line: 9,
    severity: 'error',
    code: 'path_escapes_root',
    message: `path "../../outside.sh" escapes extension root "${join(brokenDir, 'home', '.compozy', 'extensions', 'escaper')}"`,
    hook: 'run-outside',
  },
  // agent definitions
  {
    file: 'home/.compozy/agents/release-helper/AGENT.md',
    line: 2,
    severity: 'error',
    code: 'agent_name_mismatch',
    contains: ['release-bot', 'release-helper'],
  },
  {
    file: 'home/.compozy/agents/auditor/AGENT.md',
    line: 9,
    severity: 'error',
    code: 'matcher_agent_name_mismatch',
    message: 'agent.hooks[0]: matcher.agent_name must match agent name "auditor"',
    hook: 'audit-prompts',
  },
  {
    file: 'workspace/.compozy/agents/compactor/AGENT.md',
    line: 5,
    severity: 'error',
    code: 'matcher_field_not_allowed',
    message: 'agent.hooks[0]: hooks: matcher fields [agent_name] are not valid for event "context.pre_compact"',
    hook: 'before-compact',
  },
  // skills
  {
    file: 'home/.compozy/skills/bad-yaml/SKILL.md',
    line: 3,
    column: 14,
    severity: 'error',
    code: 'yaml_parse_error',
    contains: ['invalid YAML front matter'],
  },
  {
    file: 'home/.compozy/skills/legacy-event/SKILL.md',
    line: 7,
    severity: 'error',
    code: 'removed_event',
    message: 'hook event "on_session_created" was removed; use "session.post_create"',
    hook: 'legacy-event',
  },
  {
    file: 'workspace/.compozy/skills/no-command/SKILL.md',
    line: 7,
    severity: 'error',
    code: 'command_required',
    contains: ['command is required'],
    hook: 'no-command',
  },
  {
    file: 'workspace/.compozy/skills/malformed-compozy/SKILL.md',
    line: 5,
    severity: 'warning',
    code: 'compozy_metadata_not_a_map',
    contains: ['metadata.compozy'],
  },
  {
    file: 'workspace/.compozy/skills/binary/SKILL.md',
    line: 3,
    column: 1,
    severity: 'error',
    code: 'binary_file',
    message: 'file is binary (it contains NUL bytes)',
  },
  // cosh
  {
    file: 'home/.copilot-shell/config.toml',
    line: 6,
    severity: 'error',
    code: 'invalid_event',
    contains: ['PreToolCall'],
  },
  { file: 'home/.copilot-shell/config.toml', line: 11, severity: 'warning', code: 'nameless_hook', contains: ['Stop'] },
  {
    file: 'workspace/.copilot-shell/config.toml',
    line: 4,
    severity: 'error',
    code: 'invalid_matcher_pattern',
    contains: ['^(shell|run_shell_command$'],
    hook: 'bad-regex',
  },
  {
    file: 'home/.copilot-shell/extensions/bad-json/cosh-extension.json',
    line: 4,
    column: 3,
    severity: 'error',
    code: 'json_parse_error',
    contains: ['invalid JSON'],
  },
  {
    file: 'home/.copilot-shell/extensions/bad-name/cosh-extension.json',
    line: 2,
    severity: 'error',
    code: 'invalid_extension_name',
    contains: ['Secret-Guard'],
  },
];

function expectRow(d: JsonDiagnostic | undefined, e: Expected): void {
  const where = `${e.file}:${e.line}`;
  expect(d, `no diagnostic at ${where}`).toBeDefined();
  expect(d!.severity, where).toBe(e.severity);
  expect(d!.code, where).toBe(e.code);
  if (e.message !== undefined) expect(d!.message, where).toBe(e.message);
  for (const part of e.contains ?? []) expect(d!.message, where).toContain(part);
  if (e.hook !== undefined) expect(d!.hook, where).toBe(e.hook);
  if (e.column !== undefined) expect(d!.column, where).toBe(e.column);
}

async function validateJson(args: string[], env: Record<string, string>, cwd?: string) {
  const r = await runCli(['hooks', 'validate', ...args, '-o', 'json'], { env, cwd });
  expect(r.stderr).not.toContain('    at ');
  return { code: r.code, report: JSON.parse(r.stdout) as JsonReport, stderr: r.stderr };
}

describe('hooks validate on fixtures/broken (EXPECTED.md)', { timeout: 120_000 }, () => {
  it('reports every row with its file:line, severity, code and message, nothing else, and exits 1', async () => {
    const { code, report } = await validateJson(BROKEN_W, brokenEnv());
    expect(code).toBe(1);
    const found = new Map(report.diagnostics.map((d) => [`${d.file}:${d.line}:${d.code}`, d]));
    for (const e of EXPECTED) expectRow(found.get(`${B}${e.file}:${e.line}:${e.code}`), e);
    // nothing else: one diagnostic per row, no duplicate for the same problem, no schema repeat
    expect(report.diagnostics.map((d) => `${d.file}:${d.line}:${d.code}`).sort()).toEqual(
      EXPECTED.map((e) => `${B}${e.file}:${e.line}:${e.code}`).sort(),
    );
    expect(report.errors).toBe(28);
    expect(report.warnings).toBe(2);
    expect(report.files).toHaveLength(17);
    for (const d of report.diagnostics) expect(d.file.startsWith(B), d.file).toBe(true);
  });

  it('EXPECTED.md has exactly the rows this test checks', () => {
    const text = readFileSync(join(brokenDir, 'EXPECTED.md'), 'utf8');
    // table rows that start with a line number or a file name in backticks
    const rows = text.split('\n').filter((l) => /^\| (\d+|`[^`]+`) \|/.test(l));
    expect(rows).toHaveLength(EXPECTED.length);
    expect(text).toContain(`${EXPECTED.length} diagnostics: 28 errors and 1 warning, plus \`malformed-compozy\``);
  });

  it('naming every broken file gives the same diagnostics as reading every source', async () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (!['EXPECTED.md', '.gitkeep', 'outside.sh'].includes(e.name)) files.push(p);
      }
    };
    walk(brokenDir);
    expect(files).toHaveLength(17);
    const { code, report } = await validateJson([...BROKEN_W, ...files], brokenEnv());
    expect(code).toBe(1);
    expect(report.diagnostics.map((d) => `${d.file}:${d.line}:${d.code}`).sort()).toEqual(
      EXPECTED.map((e) => `${B}${e.file}:${e.line}:${e.code}`).sort(),
    );
  });

  it('one named file reports only its own problems', async () => {
    const one = await validateJson([join(brokenDir, 'home', '.compozy', 'config.toml')], brokenEnv());
    expect(one.code).toBe(1);
    expect(one.report.files).toEqual([`${B}home/.compozy/config.toml`]);
    expect(one.report.diagnostics.map((d) => d.line)).toEqual([8, 12, 18, 24, 31, 37, 43, 49]);
    const cosh = await validateJson([join(brokenDir, 'workspace', '.copilot-shell', 'config.toml')], brokenEnv());
    expect(cosh.report.diagnostics.map((d) => [d.line, d.code])).toEqual([[4, 'invalid_matcher_pattern']]);
  });

  it('--strict keeps exit 1 when there are errors', async () => {
    const r = await runCli(['hooks', 'validate', ...BROKEN_W, '--strict'], { env: brokenEnv() });
    expect(r.code).toBe(1);
  });

  it('human report: file:line[:col] severity code message [hook], then the totals', async () => {
    const r = await runCli(['hooks', 'validate', ...BROKEN_W], { env: brokenEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^fixtures\/broken\/home\/\.compozy\/config\.toml:12:1\s+error\s+invalid_event\s+hooks: invalid hook event "tool\.before_call"\s+\[unknown-event\]$/m,
    );
    expect(r.stdout).toMatch(
      /^fixtures\/broken\/home\/\.copilot-shell\/config\.toml:11:1\s+warning\s+nameless_hook\s+/m,
    );
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('17 files, 28 errors, 2 warnings');
    expect(r.stdout).not.toContain('\u001b[');
    expect(r.stderr).toBe('');
  });
});

describe('hooks validate on a clean tree', { timeout: 120_000 }, () => {
  it('the demo is clean: exit 0, also with --strict', async () => {
    const { code, report } = await validateJson(DEMO_W, demoEnv());
    expect(code).toBe(0);
    expect(report).toMatchObject({ errors: 0, warnings: 0, diagnostics: [] });
    expect(report.files.length).toBeGreaterThanOrEqual(14);
    const human = await runCli(['hooks', 'validate', ...DEMO_W, '--strict'], { env: demoEnv() });
    expect(human.code).toBe(0);
    expect(human.stdout.trim()).toMatch(/^\d+ files, 0 errors, 0 warnings$/);
  });

  it('--strict fails (exit 1) on warnings only; without it they pass', async () => {
    const home = tempDir('hookctl-strict-');
    const env = isolatedEnv({ home });
    const base = join(home, 'workspace');
    mkdirSync(base);
    mkdirSync(env.COMPOZY_HOME, { recursive: true });
    writeFileSync(
      join(env.COMPOZY_HOME, 'config.toml'),
      '[[hooks.declarations]]\nname = "vaulted"\nevent = "session.post_create"\ncommand = "true"\nsecret_env = { TOKEN = "vault:hooks/demo" }\n',
    );
    const plain = await validateJson(['--workspace', base], env);
    expect(plain.code).toBe(0);
    expect(plain.report.diagnostics.map((d) => [d.severity, d.code, d.line])).toEqual([
      ['warning', 'vault_ref_unresolvable', 5],
    ]);
    const strict = await runCli(['hooks', 'validate', '--workspace', base, '--strict'], { env });
    expect(strict.code).toBe(1);
    // --strict changes only the exit code
    const strictJson = await validateJson(['--workspace', base, '--strict'], env);
    expect(strictJson.report).toEqual(plain.report);
  });
});

describe('hooks validate run from the home folder', { timeout: 120_000 }, () => {
  it('a file that is both a home file and a workspace file reports each problem once', async () => {
    const home = tempDir('hookctl-home-ws-');
    const env = isolatedEnv({ home });
    mkdirSync(env.COMPOZY_HOME, { recursive: true });
    mkdirSync(env.COSH_HOME, { recursive: true });
    writeFileSync(
      join(env.COMPOZY_HOME, 'config.toml'),
      '[[hooks.declarations]]\nname = "g"\nevent = "session.post_create"\ncommand = "true"\nretries = 1\n',
    );
    writeFileSync(join(env.COSH_HOME, 'config.toml'), '[[hooks.Stop]]\nname = "s"\ncommand = "true"\nbogus = 1\n');
    const { code, report } = await validateJson(['--workspace', home], env);
    expect(code).toBe(1);
    expect(report.diagnostics.map((d) => [d.file.split('/').slice(-2).join('/'), d.line, d.code])).toEqual([
      ['.compozy/config.toml', 5, 'unknown_field'],
      ['.copilot-shell/config.toml', 4, 'unknown_key'],
    ]);
    expect(report.files).toHaveLength(2);
  });
});

describe('hooks validate output formats', { timeout: 120_000 }, () => {
  it('--format json, -o json and --json print the same {files, errors, warnings, diagnostics}', async () => {
    const env = brokenEnv();
    const [a, b, c] = await Promise.all([
      runCli(['hooks', 'validate', ...BROKEN_W, '--format', 'json'], { env }),
      runCli(['hooks', 'validate', ...BROKEN_W, '-o', 'json'], { env }),
      runCli(['hooks', 'validate', ...BROKEN_W, '--json'], { env }),
    ]);
    expect(a.code).toBe(1);
    expect(b.code).toBe(1);
    expect(c.code).toBe(1);
    expect(b.stdout).toBe(a.stdout);
    expect(c.stdout).toBe(a.stdout);
    const report = JSON.parse(a.stdout) as JsonReport;
    expect(Object.keys(report)).toEqual(['files', 'errors', 'warnings', 'diagnostics']);
    for (const d of report.diagnostics) {
      expect(Object.keys(d)).toEqual(['severity', 'code', 'message', 'file', 'line', 'column', 'source', 'hook']);
      expect(d.code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.source).not.toBeNull();
    }
  });

  it('--format github prints one annotation per diagnostic, then the plain report', async () => {
    const r = await runCli(['hooks', 'validate', ...BROKEN_W, '--format', 'github'], { env: brokenEnv() });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    const annotations = lines.filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(30);
    expect(lines.slice(0, 30)).toEqual(annotations);
    expect(annotations).toContain(
      '::error file=fixtures/broken/home/.compozy/config.toml,line=12,col=1,title=invalid_event::hooks: invalid hook event "tool.before_call"',
    );
    expect(annotations.filter((l) => l.startsWith('::warning '))).toHaveLength(2);
    expect(r.stdout).toContain('fixtures/broken/home/.compozy/config.toml:12:1  error  invalid_event');
    expect(lines.at(-1)).toBe('17 files, 28 errors, 2 warnings');
  });

  it('GITHUB_ACTIONS=true makes github the default; --format and -o json still win', async () => {
    const env = { ...brokenEnv(), GITHUB_ACTIONS: 'true' };
    const [byDefault, explicit, json, human] = await Promise.all([
      runCli(['hooks', 'validate', ...BROKEN_W], { env }),
      runCli(['hooks', 'validate', ...BROKEN_W, '--format', 'github'], { env: brokenEnv() }),
      runCli(['hooks', 'validate', ...BROKEN_W, '-o', 'json'], { env }),
      runCli(['hooks', 'validate', ...BROKEN_W, '--format', 'human'], { env }),
    ]);
    expect(byDefault.stdout).toBe(explicit.stdout);
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    expect(human.stdout).not.toContain('::error');
    // --format wins over -o
    const sarifOverJson = await runCli(['hooks', 'validate', ...BROKEN_W, '--format', 'sarif', '-o', 'json'], { env });
    expect(JSON.parse(sarifOverJson.stdout)).toHaveProperty('version', '2.1.0');
  });

  it('--format sarif prints a SARIF 2.1.0 log: one rule per code, one result per diagnostic', async () => {
    const [sarif, json] = await Promise.all([
      runCli(['hooks', 'validate', ...BROKEN_W, '--format', 'sarif'], { env: brokenEnv() }),
      validateJson(BROKEN_W, brokenEnv()),
    ]);
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('hookctl');
    expect(run.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
    const rules = run.tool.driver.rules as { id: string; shortDescription: { text: string } }[];
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(new Set(rules.map((r) => r.id))).toEqual(new Set(json.report.diagnostics.map((d) => d.code)));
    const known: Record<string, string> = { ...DIAGNOSTIC_CODES, ...COSH_DIAGNOSTIC_CODES };
    for (const rule of rules) expect(rule.shortDescription.text).toBe(known[rule.id]);
    expect(run.results).toHaveLength(30);
    interface SarifResult {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string; uriBaseId?: string };
          region: { startLine: number; startColumn?: number };
        };
      }[];
    }
    for (const [i, result] of (run.results as SarifResult[]).entries()) {
      const d = json.report.diagnostics[i]!;
      expect(result.ruleId).toBe(d.code);
      expect(rules[result.ruleIndex]!.id).toBe(d.code);
      expect(result.level).toBe(d.severity);
      expect(result.message.text).toBe(d.message);
      expect(result.locations).toHaveLength(1);
      const loc = result.locations[0]!.physicalLocation;
      expect(loc.artifactLocation).toEqual({ uri: d.file, uriBaseId: '%SRCROOT%' });
      expect(loc.region.startLine).toBe(d.line);
      if (d.column !== null) expect(loc.region.startColumn).toBe(d.column);
    }
  });
});

describe('hooks validate FILE', { timeout: 120_000 }, () => {
  it('a named file that does not exist is a usage error (exit 2), also next to one that does', async () => {
    const env = brokenEnv();
    const [missing, mixed, json] = await Promise.all([
      runCli(['hooks', 'validate', 'no/such/config.toml'], { env }),
      runCli(['hooks', 'validate', join(brokenDir, 'home', '.compozy', 'config.toml'), 'nope.toml'], { env }),
      runCli(['hooks', 'validate', 'no/such/config.toml', '--json'], { env }),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim()).toBe('hookctl: no such file "no/such/config.toml"');
    expect(mixed.code).toBe(2);
    expect(mixed.stdout).toBe('');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: 'file_not_found', message: 'no such file "no/such/config.toml"', exit: 2 },
    });
  });

  it('a named folder is a usage error (exit 2)', async () => {
    const r = await runCli(['hooks', 'validate', join(brokenDir, 'home')], { env: brokenEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a directory/);
  });

  it('a file whose kind cannot be told is a diagnostic, not a crash', async () => {
    const dir = tempDir('hookctl-kind-');
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    const { code, report } = await validateJson([join(dir, 'notes.txt')], isolatedEnv());
    expect(code).toBe(1);
    expect(report.diagnostics.map((d) => [d.code, d.line])).toEqual([['unknown_file_kind', 1]]);
  });
});

/** A tree with one file of every kind broken in a way that must become a diagnostic. */
function badInputTree() {
  const base = tempDir('hookctl-bad-');
  const env = isolatedEnv({ home: base });
  const workspace = join(base, 'workspace');
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  const H = env.COMPOZY_HOME;
  // a folder where the global config.toml belongs: unreadable
  mkdirSync(join(H, 'config.toml'), { recursive: true });
  write(join(workspace, '.compozy', 'config.toml'), '[[hooks.declarations]]\nname = "x"\nevent = \n');
  write(join(H, 'extensions', 'badjson', 'extension.json'), '{"extension": {"name": "badjson"},\n  "resources": [}\n');
  write(
    join(H, 'extensions', 'types', 'extension.toml'),
    '[extension]\nname = "types"\nversion = "1.0.0"\n[resources]\nhooks = "not a list"\n',
  );
  write(join(H, 'agents', 'yaml', 'AGENT.md'), '---\nname: yaml\nhooks:\n  - name: x\n   event: bad indent\n---\n');
  write(join(H, 'agents', 'list', 'AGENT.md'), '---\n- just\n- a list\n---\nbody\n');
  write(
    join(H, 'agents', 'wrongtypes', 'AGENT.md'),
    '---\nname: wrongtypes\nhooks:\n  - name: w\n    event: session.post_create\n    command: true\n    args: 5\n---\n',
  );
  write(join(H, 'skills', 'binary', 'SKILL.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02, 0xff, 0x0a]));
  write(
    join(H, 'skills', 'latin1', 'SKILL.md'),
    Buffer.concat([Buffer.from('---\nname: caf'), Buffer.from([0xe9]), Buffer.from('\n---\n')]),
  );
  write(
    join(H, 'skills', 'good', 'SKILL.md'),
    '---\nname: good\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_create\n        command: /bin/true\n---\n',
  );
  write(join(env.COSH_HOME, 'config.toml'), '[[hooks.PreToolUse]\nname = "x"\n');
  write(join(env.COSH_HOME, 'extensions', 'broken', 'cosh-extension.json'), '{"name": "broken", "hooks": [');
  write(join(env.COSH_HOME, 'extensions', 'shape', 'cosh-extension.json'), '{"name": "shape", "hooks": []}');
  return { base, env, workspace, home: H };
}

describe('bad input never crashes', { timeout: 120_000 }, () => {
  it('every malformed file becomes a diagnostic with its file and line, and the other files are still read', async () => {
    const tree = badInputTree();
    const W = ['--workspace', tree.workspace];
    const { code, report, stderr } = await validateJson(W, tree.env, tree.base);
    expect(code).toBe(1);
    expect(stderr).toBe('');
    const byFile = (suffix: string) => report.diagnostics.filter((d) => d.file.endsWith(suffix));
    const codesOf = (suffix: string) => byFile(suffix).map((d) => [d.code, d.line]);
    expect(codesOf('.compozy/config.toml').filter(([c]) => c === 'file_unreadable')).toEqual([['file_unreadable', 1]]);
    expect(codesOf('workspace/.compozy/config.toml')).toEqual([['toml_parse_error', 3]]);
    expect(codesOf('badjson/extension.json')).toEqual([['json_parse_error', 2]]);
    expect(codesOf('types/extension.toml')).toEqual([['invalid_section', 5]]);
    expect(codesOf('yaml/AGENT.md')).toEqual([['yaml_parse_error', 5]]);
    expect(codesOf('list/AGENT.md')).toEqual([['frontmatter_not_a_map', 2]]);
    expect(codesOf('wrongtypes/AGENT.md').map(([c]) => c)).toEqual(expect.arrayContaining(['invalid_field_type']));
    expect(codesOf('binary/SKILL.md')).toEqual([['binary_file', 2]]);
    expect(codesOf('latin1/SKILL.md')).toEqual([['invalid_utf8', 2]]);
    expect(codesOf('.copilot-shell/config.toml')).toEqual([['toml_parse_error', 1]]);
    expect(codesOf('broken/cosh-extension.json')).toEqual([['json_parse_error', 1]]);
    expect(codesOf('shape/cosh-extension.json')).toEqual([['invalid_section', 1]]);
    expect(byFile('good/SKILL.md')).toEqual([]);
    for (const d of report.diagnostics) {
      expect(d.file).not.toBe('');
      expect(d.line).toBeGreaterThanOrEqual(1);
    }
    // the valid skill is still listed, and every read command answers without a stack trace
    const list = await runCli(['hooks', 'list', ...W, '-o', 'json'], { env: tree.env, cwd: tree.base });
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((e) => e.name)).toEqual(['good']);
    expect(list.stderr).toMatch(/declaration errors?: the hooks they affect are left out/);
    for (const args of [
      ['hooks', 'list', ...W],
      ['hooks', 'info', 'good', ...W],
      ['hooks', 'info', 'x', ...W, '--json'],
      ['hooks', 'validate', ...W, '--format', 'sarif'],
    ]) {
      const r = await runCli(args, { env: tree.env, cwd: tree.base });
      expect(r.stderr, args.join(' ')).not.toContain('    at ');
      expect(r.stdout, args.join(' ')).not.toContain('    at ');
      expect([0, 1], args.join(' ')).toContain(r.code);
    }
  });

  it('each malformed file named on the command line is a diagnostic too', async () => {
    const tree = badInputTree();
    const files = [
      join(tree.workspace, '.compozy', 'config.toml'),
      join(tree.home, 'extensions', 'badjson', 'extension.json'),
      join(tree.home, 'agents', 'yaml', 'AGENT.md'),
      join(tree.home, 'agents', 'list', 'AGENT.md'),
      join(tree.home, 'skills', 'binary', 'SKILL.md'),
      join(tree.home, 'skills', 'latin1', 'SKILL.md'),
      join(tree.env.COSH_HOME, 'extensions', 'broken', 'cosh-extension.json'),
    ];
    const { code, report } = await validateJson(files, tree.env, tree.base);
    expect(code).toBe(1);
    const codeOf = (file: string) =>
      report.diagnostics.filter((d) => tree.base + '/' + d.file === file).map((d) => d.code);
    expect(files.map(codeOf)).toEqual([
      ['toml_parse_error'],
      ['json_parse_error'],
      ['yaml_parse_error'],
      ['frontmatter_not_a_map'],
      ['binary_file'],
      ['invalid_utf8'],
      ['json_parse_error'],
    ]);
    expect(new Set(report.diagnostics.map((d) => d.file)).size).toBe(files.length);
  });

  it.skipIf(process.getuid?.() === 0)('a file without read permission is a diagnostic (not as root)', async () => {
    const tree = badInputTree();
    const file = join(tree.home, 'skills', 'good', 'SKILL.md');
    chmodSync(file, 0o000);
    try {
      const { code, report } = await validateJson(['--workspace', tree.workspace], tree.env, tree.base);
      expect(code).toBe(1);
      expect(report.diagnostics.filter((d) => d.file.endsWith('good/SKILL.md')).map((d) => [d.code, d.line])).toEqual([
        ['file_unreadable', 1],
      ]);
    } finally {
      chmodSync(file, 0o644);
    }
  });
});

describe('JSON Schemas in validate', { timeout: 120_000 }, () => {
  it('reports what only the schema knows, in every-source mode and for a named file', async () => {
    const base = tempDir('hookctl-schema-');
    const env = isolatedEnv({ home: base });
    const manifest = join(env.COMPOZY_HOME, 'extensions', 'versioned', 'extension.toml');
    mkdirSync(dirname(manifest), { recursive: true });
    writeFileSync(
      manifest,
      '[extension]\nname = "versioned"\nversion = 5\n\n[[resources.hooks]]\nname = "v"\nevent = "session.post_create"\ncommand = "/bin/true"\n',
    );
    const agent = join(env.COMPOZY_HOME, 'agents', 'nameless', 'AGENT.md');
    mkdirSync(dirname(agent), { recursive: true });
    writeFileSync(agent, '---\nprovider: codex\n---\n');
    const expected = [
      ['nameless/AGENT.md', 'error', 'schema_required', 1, 'front matter: missing required key "name"'],
      ['versioned/extension.toml', 'error', 'schema_type', 3, 'extension.version: must be string, got integer'],
    ];
    const all = await validateJson(['--workspace', base], env);
    expect(all.code).toBe(1);
    const shape = (r: JsonReport) =>
      r.diagnostics.map((d) => [d.file.split('/').slice(-2).join('/'), d.severity, d.code, d.line, d.message]);
    expect(shape(all.report)).toEqual(expected);
    const named = await validateJson([agent, manifest], env);
    expect(shape(named.report)).toEqual(expected);
    // list is not slowed or changed by the schemas: the hook is listed, nothing warned
    const list = await runCli(['hooks', 'list', '--workspace', base, '-o', 'json'], { env });
    expect(list.stderr).toBe('');
    expect((JSON.parse(list.stdout) as { name: string }[]).map((e) => e.name)).toEqual(['v']);
  });

  it('a problem both the rules and the schema see is reported once, with the rule text', async () => {
    const home = tempDir('hookctl-once-');
    const env = isolatedEnv({ home });
    const base = join(home, 'workspace');
    mkdirSync(base);
    mkdirSync(env.COMPOZY_HOME, { recursive: true });
    mkdirSync(env.COSH_HOME, { recursive: true });
    writeFileSync(
      join(env.COMPOZY_HOME, 'config.toml'),
      [
        '[[hooks.declarations]]',
        'name = "a"',
        'event = "tool.pre_call"',
        'mode = "later"',
        'command = "x"',
        'retries = 3',
        'env = { "BAD-NAME" = "x" }',
        '',
        '[[hooks.declarations]]',
        'name = "b"',
        'event = "session.post_create"',
        'command = "x"',
        'timeout = "soon"',
        'priority = 99999999999',
        '',
        '[hooks.declarations.matcher]',
        'agent_type = "x"',
        '',
      ].join('\n'),
    );
    writeFileSync(join(env.COSH_HOME, 'config.toml'), '[[hooks.PreToolUse]]\nname = "c"\ncommand = "x"\nretry = 1\n');
    const skill = join(env.COMPOZY_HOME, 'skills', 's', 'SKILL.md');
    mkdirSync(dirname(skill), { recursive: true });
    writeFileSync(
      skill,
      '---\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_create\n        command: x\n---\n',
    );
    const ext = join(env.COSH_HOME, 'extensions', 'one', 'cosh-extension.json');
    mkdirSync(dirname(ext), { recursive: true });
    writeFileSync(
      ext,
      '{"name": "one", "version": 1, "hooks": {"Stop": [{"sequential": "yes", "hooks": [{"type": "bash", "name": "h", "command": "x", "timeout": "5"}]}]}}',
    );
    const { report } = await validateJson(['--workspace', base], env);
    expect(report.diagnostics.filter((d) => d.code.startsWith('schema_'))).toEqual([]);
    expect(report.diagnostics.map((d) => d.code).sort()).toEqual(
      [
        'invalid_mode',
        'unknown_field',
        'invalid_env_name',
        'invalid_timeout',
        'priority_out_of_range',
        'matcher_field_not_allowed',
        'unknown_key',
        'skill_name_required',
        'invalid_field_type',
        'invalid_field_type',
        'invalid_hook_type',
        'invalid_timeout',
      ].sort(),
    );
  });
});

describe('docs/DIAGNOSTICS.md', () => {
  const docs = readFileSync(join(repoRoot, 'docs', 'DIAGNOSTICS.md'), 'utf8');
  const documented = new Map<string, string>();
  // the first row of a code (file_not_found is a diagnostic and a command error too)
  for (const m of docs.matchAll(/^\| `([a-z0-9_]+)` \| ([^|]+) \|/gm))
    if (!documented.has(m[1]!)) documented.set(m[1]!, m[2]!.trim());
  const tables = new Set([
    ...Object.keys(DIAGNOSTIC_CODES),
    ...Object.keys(COSH_DIAGNOSTIC_CODES),
    ...Object.keys(CLAUDE_DIAGNOSTIC_CODES),
    ...Object.keys(CODEX_DIAGNOSTIC_CODES),
    ...Object.keys(SCHEMA_CODES),
  ]);

  it('documents every code of the three code tables, with a severity', () => {
    for (const code of tables) {
      expect(documented.has(code), code).toBe(true);
      expect(documented.get(code), code).toMatch(/^(error|warning)/);
    }
  });

  it('documents no diagnostic code that no table has', () => {
    const commandErrors = new Set([
      'usage_error',
      'unknown_command',
      'session_not_found',
      'invalid_payload',
      'unknown_flag',
      'directory_not_found',
      'not_a_directory',
      'file_is_directory',
      'hook_not_found',
      'unknown_event',
      'ambiguous_dialect',
      'internal_error',
      'file_not_found',
      'payload_unreadable',
      'ledger_unwritable',
    ]);
    for (const code of documented.keys()) expect(tables.has(code) || commandErrors.has(code), code).toBe(true);
  });

  it('every code literal the loaders and validators emit is in a table (and so documented)', () => {
    const found = new Set<string>();
    const patterns = [
      /(?<!(?:paint|toned)\()'(?:error|warning)',\s*'([a-z0-9_]+)'/g, // makeDiagnostic('error', 'code', …), diagnostic('warning', 'code', …); not colour.paint('warning', text)
      /\.(?:error|warn)\(\s*'([a-z0-9_]+)'/g, // check.error('code', …)
      /(?<![.\w])(?:error|warn)\(\s*'([a-z0-9_]+)'/g, // local error('code', …) helpers
      /\bcode:\s*'([a-z0-9_]+)'/g, // { severity, code: 'x', … }
    ];
    const scan = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) scan(p);
        // Event catalogs are data (`field('error', 'string', …)`), not diagnostics.
        else if (p.endsWith('.ts') && !p.endsWith('.generated.ts') && !/events\.ts$/.test(p)) {
          const text = readFileSync(p, 'utf8');
          for (const re of patterns) for (const m of text.matchAll(re)) found.add(m[1]!);
        }
      }
    };
    scan(join(repoRoot, 'src', 'declarations'));
    scan(join(repoRoot, 'src', 'dialects'));
    scan(join(repoRoot, 'src', 'validate'));
    scan(join(repoRoot, 'src', 'app'));
    expect(found.size).toBeGreaterThan(40);
    for (const code of found) expect(tables.has(code), `${code} is emitted but in no code table`).toBe(true);
  });

  it('every code the CLI reported in these tests is documented', async () => {
    const runs = await Promise.all([
      validateJson(BROKEN_W, brokenEnv()),
      (async () => {
        const tree = badInputTree();
        return validateJson(['--workspace', tree.workspace], tree.env, tree.base);
      })(),
    ]);
    for (const { report } of runs)
      for (const d of report.diagnostics) expect(documented.has(d.code), d.code).toBe(true);
  });
});
