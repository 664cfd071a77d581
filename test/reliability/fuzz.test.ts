// Hostile and malformed input (SPEC §6 "A clear one-line message, never a stack trace", §7 "no
// malformed file makes hookctl crash or print a stack trace"):
// - declaration files of every format, mutated with a seeded PRNG, through the built
//   `hooks validate` (batched: one process per format) and through validateSources in-process;
// - payloads to `hooks fire` that are not JSON, not an object, huge, deeply nested or not UTF-8.
// HOOKCTL_FUZZ_CASES (total over the 7 formats, default 420) and HOOKCTL_FUZZ_SEED (default
// 20261129) run more or other cases; `npm run fuzz` wraps this file for long runs.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import { HookctlError } from '../../src/errors.js';
import { fire } from '../../src/app/fire.js';
import { resolveLocations } from '../../src/paths.js';
import { validateSources } from '../../src/app/validate.js';
import { isolatedEnv, repoRoot, runCli } from '../support/cli.js';
import { mutate, MUTATOR_NAMES, type Syntax } from './mutate.js';
import { makeBox, parseJson, SEED_FIXTURES, STACK_FRAME, type Box } from './support.js';
import { tempDir } from '../support/temp.js';

const SEED = Number(process.env.HOOKCTL_FUZZ_SEED ?? 20261129);
const TOTAL_CASES = Number(process.env.HOOKCTL_FUZZ_CASES ?? 420);
/** Files per `hooks validate` process (long runs split a format into several processes). */
const BATCH = 250;
/** CPU time one file may take in-process: a guard against hangs and blow-ups, not a benchmark. */
const SLOW_CASE_MS = 10_000;

interface Format {
  id: string;
  seed: string;
  syntax: Syntax;
  /** Where the file sits inside a case folder: the name and folder tell validate its kind. */
  path: string;
  /** Files a valid copy needs beside it (extension hook scripts). */
  beside?: string[];
}

const FORMATS: Format[] = [
  { id: 'compozy-config', seed: 'compozy-config.toml', syntax: 'toml', path: 'ws/.compozy/config.toml' },
  {
    id: 'extension-toml',
    seed: 'extension.toml',
    syntax: 'toml',
    path: 'ext/extension.toml',
    beside: ['hooks/context.sh', 'hooks/post.sh'],
  },
  {
    id: 'extension-json',
    seed: 'extension.json',
    syntax: 'json',
    path: 'ext/extension.json',
    beside: ['hooks/context.sh', 'hooks/post.sh'],
  },
  { id: 'agent-md', seed: 'AGENT.md', syntax: 'yaml', path: 'agents/planner/AGENT.md' },
  { id: 'skill-md', seed: 'SKILL.md', syntax: 'yaml', path: 'skills/tool-logger/SKILL.md' },
  { id: 'cosh-config', seed: 'cosh-config.toml', syntax: 'toml', path: '.copilot-shell/config.toml' },
  { id: 'cosh-extension', seed: 'cosh-extension.json', syntax: 'json', path: 'cosh-ext/cosh-extension.json' },
];

interface Case {
  format: Format;
  index: number;
  ops: string[];
  file: string;
}

const root = tempDir('hookctl-fuzz-');
/** One in-process pass at a time: resolves with the function that hands the turn on. */
let turns: Promise<void> = Promise.resolve();
function inProcessTurn(): Promise<() => void> {
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const ready = turns.then(() => release);
  turns = turns.then(() => mine);
  return ready;
}

/** Set when a case fails: its files are then kept for a look (the messages name them). */
let keepCases = false;
afterAll(() => {
  if (!keepCases) rmSync(root, { recursive: true, force: true });
});
const env = isolatedEnv({ home: join(root, 'home') });
const casesPerFormat = Math.max(1, Math.ceil(TOTAL_CASES / FORMATS.length));

function figure(text: string): void {
  if (process.env.HOOKCTL_FIGURES) process.stdout.write(`[figures] ${text}\n`);
}

/** Writes case `index` of a format (index -1 = the seed itself, unmutated) into its own folder under `group`. */
function writeCase(format: Format, index: number, group = format.id): Case {
  const seedBytes = readFileSync(join(SEED_FIXTURES, format.seed));
  const { bytes, ops } =
    index < 0 ? { bytes: seedBytes, ops: [] } : mutate(seedBytes, format.syntax, SEED, format.id, index);
  const dir = join(root, group, String(index));
  const file = join(dir, format.path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  for (const extra of format.beside ?? []) {
    const path = join(dirname(file), extra);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '#!/bin/sh\nprintf {}\n');
    chmodSync(path, 0o755);
  }
  return { format, index, ops, file };
}

const reproduce = (c: Case) =>
  `HOOKCTL_FUZZ_SEED=${SEED} case ${c.format.id}#${c.index} [${c.ops.join(' + ')}] (${c.file})`;

/** The report contract (SPEC §6, validate): counts equal the diagnostics; each one well-formed. */
function reportProblems(report: unknown, files: string[], cwd: string): string[] {
  const problems: string[] = [];
  const r = report as { files?: unknown; errors?: unknown; warnings?: unknown; diagnostics?: unknown };
  if (
    !Array.isArray(r.files) ||
    !Array.isArray(r.diagnostics) ||
    typeof r.errors !== 'number' ||
    typeof r.warnings !== 'number'
  ) {
    return [`not a report: ${JSON.stringify(report).slice(0, 300)}`];
  }
  const known = new Set(files.map((f) => resolve(f)));
  const diagnostics = r.diagnostics as Record<string, unknown>[];
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  if (errors !== r.errors) problems.push(`errors = ${String(r.errors)} but ${errors} error diagnostics`);
  if (warnings !== r.warnings) problems.push(`warnings = ${String(r.warnings)} but ${warnings} warning diagnostics`);
  if (errors + warnings !== diagnostics.length) problems.push('a diagnostic is neither error nor warning');
  for (const d of diagnostics) problems.push(...diagnosticProblems(d, known, cwd));
  return problems;
}

function diagnosticProblems(d: Record<string, unknown>, known: Set<string>, cwd: string): string[] {
  const out: string[] = [];
  const show = JSON.stringify(d).slice(0, 300);
  if (typeof d.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(d.code)) out.push(`code not snake_case: ${show}`);
  if (typeof d.message !== 'string' || d.message.trim() === '') out.push(`empty message: ${show}`);
  else if (/[\r\n]/.test(d.message)) out.push(`message is not one line: ${show}`);
  if (typeof d.file !== 'string' || !known.has(resolve(cwd, d.file)))
    out.push(`file is not one of those validated: ${show}`);
  if (!Number.isInteger(d.line) || (d.line as number) < 1) out.push(`line is not a positive integer: ${show}`);
  if (d.column !== undefined && d.column !== null && (!Number.isInteger(d.column) || (d.column as number) < 1)) {
    out.push(`column is not a positive integer: ${show}`);
  }
  return out;
}

function prototypeIsClean(): boolean {
  return Object.keys(Object.prototype).length === 0 && ({} as Record<string, unknown>).polluted === undefined;
}

beforeAll(() => {
  expect(MUTATOR_NAMES.length).toBeGreaterThanOrEqual(10);
});

describe('fuzz: mutated declaration files of every format', () => {
  it('the unmutated seeds are valid (so every diagnostic below comes from a mutation)', async () => {
    const seeds = FORMATS.map((f) => writeCase(f, -1));
    // The scripts the seeds' config and skill hooks start, in the workspace they run in (a
    // missing one is command_not_found).
    for (const script of ['hooks/gate.sh', 'hooks/style.sh']) {
      mkdirSync(dirname(join(root, script)), { recursive: true });
      writeFileSync(join(root, script), '#!/bin/sh\nprintf {}\n');
      chmodSync(join(root, script), 0o755);
    }
    const res = await runCli(['hooks', 'validate', ...seeds.map((c) => c.file), '-o', 'json'], { env, cwd: root });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(parseJson<{ diagnostics: unknown[] }>(res.stdout).diagnostics).toEqual([]);
  });

  // Concurrent: one format's CLI batch runs while another's cases go through validateSources.
  describe.concurrent.each(FORMATS)('$id', (format) => {
    it(
      `${casesPerFormat} mutants: hooks validate exits 0 or 1 with a well-formed report, no stack trace, no hang; validateSources never throws`,
      { timeout: 240_000 },
      async () => {
        const cases = Array.from({ length: casesPerFormat }, (_, i) => writeCase(format, i));
        const failures: string[] = [];

        // 1. The built CLI, many files per process.
        for (let from = 0; from < cases.length; from += BATCH) {
          const batch = cases.slice(from, from + BATCH);
          const files = batch.map((c) => c.file);
          let res;
          try {
            res = await runCli(['hooks', 'validate', ...files, '-o', 'json'], { env, cwd: root, timeoutMs: 120_000 });
          } catch (err) {
            throw new Error(
              `hooks validate hung on ${format.id} cases ${from}..${from + batch.length - 1}: ${(err as Error).message}`,
              {
                cause: err,
              },
            );
          }
          const where = `hooks validate ${format.id} cases ${from}..${from + batch.length - 1}`;
          if (STACK_FRAME.test(res.stderr) || STACK_FRAME.test(res.stdout))
            failures.push(`${where}: stack trace: ${res.stderr.slice(0, 500)}`);
          if (res.code !== 0 && res.code !== 1)
            failures.push(`${where}: exit ${res.code}: ${res.stdout.slice(0, 300)} ${res.stderr.slice(0, 300)}`);
          let report: { errors: number } | undefined;
          try {
            report = JSON.parse(res.stdout) as { errors: number };
          } catch {
            failures.push(
              `${where}: stdout is not JSON (${res.stdout.length} characters, exit ${res.code}): ${res.stdout.slice(0, 200)} ... ${res.stdout.slice(-80)}`,
            );
          }
          if (report) {
            failures.push(...reportProblems(report, files, root).map((p) => `${where}: ${p}`));
            if ((res.code === 1) !== report.errors > 0)
              failures.push(`${where}: exit ${res.code} with ${report.errors} errors`);
          }
        }

        // 2. In-process, one file at a time, so a crash names its case. One format at a time too
        // (the others' CLI batches go on meanwhile): process CPU time then measures this case only.
        const loc = resolveLocations({ packageRoot: repoRoot, env, workspace: join(root, 'ws'), cwd: root });
        const release = await inProcessTurn();
        try {
          for (const c of cases) {
            const cpu = process.cpuUsage();
            try {
              const outcome = await validateSources({ loc, env, files: [c.file] });
              const report = {
                files: outcome.files,
                errors: outcome.diagnostics.filter((d: Diagnostic) => d.severity === 'error').length,
                warnings: outcome.diagnostics.filter((d: Diagnostic) => d.severity === 'warning').length,
                diagnostics: outcome.diagnostics,
              };
              failures.push(...reportProblems(report, [c.file], root).map((p) => `${reproduce(c)}: ${p}`));
            } catch (err) {
              const e = err as Error;
              failures.push(
                `${reproduce(c)}: validateSources threw ${e instanceof HookctlError ? `HookctlError(${e.code})` : e.name}: ${e.message.slice(0, 200)}`,
              );
            }
            const used = process.cpuUsage(cpu);
            const ms = (used.user + used.system) / 1000;
            if (ms > SLOW_CASE_MS) failures.push(`${reproduce(c)}: took ${Math.round(ms)} ms of CPU`);
            if (!prototypeIsClean()) failures.push(`${reproduce(c)}: Object.prototype was polluted`);
          }
        } finally {
          release();
        }
        figure(`fuzz ${format.id}: ${cases.length} cases, seed ${SEED}, ${failures.length} failures`);
        if (failures.length > 0) keepCases = true;
        expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
      },
    );
  });

  it('the regression corpus (small files that long runs found) gets the same checks on every run', async () => {
    const files = CORPUS.map((entry) => {
      const file = join(root, 'corpus', entry.name, entry.path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, entry.bytes());
      return file;
    });
    const failures: string[] = [];
    const res = await runCli(['hooks', 'validate', ...files, '-o', 'json'], { env, cwd: root, timeoutMs: 120_000 });
    if (STACK_FRAME.test(res.stderr) || ![0, 1].includes(res.code))
      failures.push(`CLI: exit ${res.code} ${res.stderr.slice(0, 300)}`);
    try {
      failures.push(...reportProblems(JSON.parse(res.stdout), files, root).map((p) => `CLI: ${p}`));
    } catch {
      failures.push(`CLI: stdout is not a report: ${res.stdout.slice(0, 300)}`);
    }
    const loc = resolveLocations({ packageRoot: repoRoot, env, workspace: join(root, 'ws'), cwd: root });
    for (const [i, entry] of CORPUS.entries()) {
      try {
        const outcome = await validateSources({ loc, env, files: [files[i]!] });
        const report = {
          files: outcome.files,
          errors: outcome.diagnostics.filter((d) => d.severity === 'error').length,
          warnings: outcome.diagnostics.filter((d) => d.severity === 'warning').length,
          diagnostics: outcome.diagnostics,
        };
        failures.push(...reportProblems(report, [files[i]!], root).map((p) => `${entry.name}: ${p}`));
      } catch (err) {
        failures.push(
          `${entry.name}: validateSources threw ${(err as Error).name}: ${(err as Error).message.slice(0, 200)}`,
        );
      }
    }
    if (failures.length > 0) keepCases = true;
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it(
    'every format, every case at once: SARIF is one JSON document and GitHub annotations are one line each',
    { timeout: 240_000 },
    async () => {
      // Six cases of each format, a different operator leading each (the formatters see each shape).
      const cases = FORMATS.flatMap((f, n) =>
        Array.from({ length: Math.min(casesPerFormat, 6) }, (_, i) =>
          writeCase(f, (n * 6 + i) % casesPerFormat, `formats-${f.id}`),
        ),
      );
      const files = cases.map((c) => c.file);
      const [sarif, github] = await Promise.all([
        runCli(['hooks', 'validate', ...files, '--format', 'sarif'], { env, cwd: root, timeoutMs: 120_000 }),
        runCli(['hooks', 'validate', ...files, '--format', 'github'], { env, cwd: root, timeoutMs: 120_000 }),
      ]);
      for (const r of [sarif, github]) {
        expect(r.stderr).not.toMatch(STACK_FRAME);
        expect([0, 1]).toContain(r.code);
      }
      const doc = parseJson<{ runs: { results: unknown[] }[] }>(sarif.stdout);
      expect(Array.isArray(doc.runs[0]?.results)).toBe(true);
      const annotations = github.stdout.split('\n').filter((l) => l.startsWith('::'));
      expect(annotations.length).toBe(doc.runs[0]!.results.length);
      for (const line of annotations) expect(line).toMatch(/^::(error|warning|notice) [^\n]*::[^\n]*$/);
    },
  );
});

/**
 * Small reproducers of what long runs (`npm run fuzz`) found, so every CI run checks them whatever
 * the seed. Named after what they hold.
 */
const CORPUS: { name: string; path: string; bytes: () => Buffer }[] = [
  {
    // seed 7, cosh-config#65: String() of a TOML table (null prototype) threw.
    name: 'cosh-timeout-table',
    path: '.copilot-shell/config.toml',
    bytes: () => Buffer.from('[[hooks.PreToolUse]]\nname = "x"\ncommand = "true"\ntimeout = { x = 1 }\n'),
  },
  {
    name: 'cosh-timeout-array-of-tables',
    path: '.copilot-shell/config.toml',
    bytes: () => Buffer.from('[[hooks.PreToolUse]]\nname = "x"\ncommand = "true"\ntimeout = ["a", 1, { x = 1 }]\n'),
  },
  {
    // seed 7, cosh-config#81: a multi-line string echoed raw into a diagnostic.
    name: 'cosh-timeout-multiline',
    path: '.copilot-shell/config.toml',
    bytes: () => Buffer.from('[[hooks.PreToolUse]]\nname = "x"\ncommand = "true"\ntimeout = """\nmulti\nline"""\n'),
  },
  {
    name: 'compozy-fields-as-tables',
    path: 'ws/.compozy/config.toml',
    bytes: () =>
      Buffer.from(
        '[[hooks.declarations]]\nname = "x"\nevent = "tool.pre_call"\ncommand = { a = 1 }\ntimeout = { x = 1 }\npriority = { y = 2 }\nmode = { z = 3 }\nargs = [{ a = 1 }]\nenv = { A = { b = 1 } }\nmatcher = { tool_id = { c = 1 } }\n',
      ),
  },
  {
    // seed 20261129, extension-json#20: 20,000 levels crashed the position scanner.
    name: 'extension-json-deep',
    path: 'ext/extension.json',
    bytes: () =>
      Buffer.from(`{"extension":{"name":"deep"},"resources":{"hooks":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`),
  },
  {
    name: 'cosh-extension-deep',
    path: 'cosh-ext/cosh-extension.json',
    bytes: () => Buffer.from(`{"name":"deep","hooks":{"PreToolUse":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`),
  },
  {
    // seed 20261129, extension-json#33: V8's excerpt (with a CR) kept in the message.
    name: 'extension-json-error-excerpt',
    path: 'ext/extension.json',
    bytes: () => Buffer.from('{"extension": {"name": "x",\r  "version": #0.5.0"\r  }}'),
  },
];

// ---- payloads ----

const COMPOZY_EVENT = 'tool.pre_call';
const COSH_EVENT = 'PreToolUse';

function payloadBox(): Box {
  const box = makeBox('hookctl-fuzz-payload-');
  // One hook per dialect that reads its stdin to the end and answers an empty patch / pass.
  box.writeCompozy([
    {
      name: 'reader',
      event: COMPOZY_EVENT,
      mode: 'sync',
      command: '/bin/sh',
      args: ['-c', 'cat > /dev/null; printf {}'],
    },
  ]);
  box.writeCosh(COSH_EVENT, [{ name: 'reader', command: 'cat > /dev/null; printf {}' }]);
  return box;
}

const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const deepArray = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;

/**
 * Payloads as bytes. `object: true` = a JSON object that must give a correct run. Every payload
 * goes through fire() in-process for both dialects; `cli` names the dialects that also run it
 * through the built CLI (one of each kind: a process costs half a second of CPU).
 */
type CliDialects = 'both' | 'compozy' | 'cosh' | 'none';
const PAYLOADS: { name: string; bytes: () => Buffer; object: boolean; cli?: CliDialects }[] = [
  { name: 'not JSON: a word', bytes: () => Buffer.from('oops'), object: false },
  { name: 'not JSON: an open brace', bytes: () => Buffer.from('{'), object: false },
  { name: 'not JSON: trailing comma', bytes: () => Buffer.from('{"a":1,}'), object: false },
  { name: 'not JSON: single quotes', bytes: () => Buffer.from("{'a':1}"), object: false },
  {
    name: 'not JSON: text over several lines',
    bytes: () => Buffer.from('\n\nfoo bar\nbaz\n'),
    object: false,
    cli: 'both',
  },
  { name: 'not JSON: two objects (JSONL)', bytes: () => Buffer.from('{"a":1}\n{"b":2}\n'), object: false },
  { name: 'not JSON: a comment', bytes: () => Buffer.from('// hi\n{}'), object: false },
  { name: 'not JSON: NaN', bytes: () => Buffer.from('{"a":NaN}'), object: false },
  { name: 'not JSON: a NUL byte', bytes: () => Buffer.from([0x00]), object: false },
  { name: 'not JSON: UTF-16', bytes: () => Buffer.from('{"a":1}', 'utf16le'), object: false },
  {
    name: 'not JSON: binary junk',
    bytes: () => Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x80, 0x0a]),
    object: false,
    cli: 'compozy',
  },
  { name: 'not an object: array', bytes: () => Buffer.from('[{"tool_id":"x"}]'), object: false, cli: 'both' },
  { name: 'not an object: string', bytes: () => Buffer.from('"{}"'), object: false, cli: 'compozy' },
  { name: 'not an object: number', bytes: () => Buffer.from('42'), object: false },
  { name: 'not an object: huge number', bytes: () => Buffer.from('1e400'), object: false },
  { name: 'not an object: null', bytes: () => Buffer.from('null'), object: false, cli: 'compozy' },
  { name: 'not an object: true', bytes: () => Buffer.from('true'), object: false },
  { name: 'deeply nested object, 5000 levels', bytes: () => Buffer.from(deepObject(5000)), object: true },
  {
    name: 'deeply nested object, 100k levels',
    bytes: () => Buffer.from(deepObject(100_000)),
    object: true,
    cli: 'both',
  },
  {
    name: 'deeply nested arrays, 100k levels',
    bytes: () => Buffer.from(deepArray(100_000)),
    object: true,
    cli: 'compozy',
  },
  {
    name: 'invalid UTF-8 inside a string',
    bytes: () => Buffer.concat([Buffer.from('{"tool_id":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    object: true,
    cli: 'both',
  },
  {
    name: 'a UTF-8 BOM before the object',
    bytes: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]),
    object: true,
  },
  { name: 'a lone surrogate escape', bytes: () => Buffer.from('{"tool_id":"\\ud800"}'), object: true },
  { name: 'duplicate keys', bytes: () => Buffer.from('{"tool_id":"a","tool_id":"b"}'), object: true },
  {
    name: 'a huge number inside',
    bytes: () => Buffer.from('{"n":1e400,"m":-1e400,"k":123456789012345678901234567890}'),
    object: true,
  },
  {
    name: '__proto__ and constructor keys',
    bytes: () => Buffer.from('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}'),
    object: true,
    cli: 'compozy',
  },
  {
    name: 'a 5 MB string',
    bytes: () => Buffer.from(JSON.stringify({ tool_id: 'x', blob: 'y'.repeat(5 * 1024 * 1024) })),
    object: true,
    cli: 'cosh', // compozy gets the 20 MB object below
  },
  { name: 'empty', bytes: () => Buffer.alloc(0), object: true },
  { name: 'white space', bytes: () => Buffer.from(' \n\t\r\n'), object: true },
];

/** SPEC §6: exit 2 with one clear line and nothing recorded, or a correct run. */
function checkCliOutcome(
  name: string,
  object: boolean,
  res: { code: number; stdout: string; stderr: string },
  records: () => unknown[],
): string[] {
  const problems: string[] = [];
  if (STACK_FRAME.test(res.stderr) || STACK_FRAME.test(res.stdout)) problems.push(`${name}: stack trace`);
  if (/internal error/i.test(res.stderr + res.stdout))
    problems.push(`${name}: internal error: ${(res.stderr + res.stdout).slice(0, 200)}`);
  if (res.code === 2) {
    const lines = res.stderr.split('\n').filter((l) => l !== '');
    if (lines.length !== 1 || !lines[0]!.startsWith('hookctl: '))
      problems.push(`${name}: exit 2 without one clear line: ${JSON.stringify(res.stderr.slice(0, 300))}`);
    if (records().length !== 0) problems.push(`${name}: exit 2 but something was recorded`);
  } else if (res.code === 0) {
    if (!object) problems.push(`${name}: a payload that is not an object ran (exit 0)`);
    const recorded = records() as { outcome: string }[];
    if (recorded.length !== 1 || recorded[0]!.outcome !== 'applied')
      problems.push(`${name}: exit 0 but records ${JSON.stringify(recorded).slice(0, 300)}`);
  } else {
    problems.push(`${name}: exit ${res.code} (want 2 or a correct run): ${res.stderr.slice(0, 300)}`);
  }
  return problems;
}

describe.concurrent('fuzz: payloads to hooks fire', () => {
  let box: Box;
  beforeAll(() => {
    box = payloadBox();
  });
  afterAll(() => {
    expect(prototypeIsClean()).toBe(true);
  });

  it.each(['compozy', 'cosh'] as const)(
    '%s, built CLI: one payload of each kind exits 2 with one line and records nothing, or runs correctly',
    { timeout: 120_000 },
    async (dialect) => {
      const event = dialect === 'compozy' ? COMPOZY_EVENT : COSH_EVENT;
      const dir = join(box.out, `payloads-${dialect}`);
      mkdirSync(dir);
      const problems: string[] = [];
      const chosen = PAYLOADS.filter((p) => p.cli === 'both' || p.cli === dialect);
      // Two at a time: enough to overlap start-up with work on 2 cores.
      for (let i = 0; i < chosen.length; i += 2) {
        await Promise.all(
          chosen.slice(i, i + 2).map(async (p, j) => {
            const session = `p${i + j}`;
            const file = join(dir, `${session}.json`);
            writeFileSync(file, p.bytes());
            // Half through --payload FILE, half through stdin: both readers see the same bytes.
            const viaFile = (i + j) % 2 === 0;
            const args = ['hooks', 'fire', event, '--session', session, ...(viaFile ? ['--payload', file] : [])];
            const res = await box.cli(args, {
              input: viaFile ? '' : (p.bytes() as unknown as string),
              timeoutMs: 60_000,
            });
            problems.push(
              ...checkCliOutcome(`${p.name} (${viaFile ? '--payload' : 'stdin'})`, p.object, res, () => {
                try {
                  return box.records(dialect, session);
                } catch {
                  return [];
                }
              }),
            );
          }),
        );
      }
      expect(problems, problems.join('\n')).toEqual([]);
    },
  );

  it(
    'compozy, built CLI: a 20 MB payload object (200,000 keys) runs correctly and the hook reads all of it',
    { timeout: 120_000 },
    async () => {
      const big = Buffer.from(
        JSON.stringify(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, 'v'.repeat(90)]))),
      );
      expect(big.length).toBeGreaterThan(20_000_000);
      const results = await Promise.all(
        (['compozy'] as const).map(async (dialect) => {
          const res = await box.cli(
            [
              'hooks',
              'fire',
              dialect === 'compozy' ? COMPOZY_EVENT : COSH_EVENT,
              '--session',
              `big-${dialect}`,
              '-o',
              'json',
            ],
            {
              input: big as unknown as string,
              timeoutMs: 110_000,
            },
          );
          return { dialect, res };
        }),
      );
      for (const { dialect, res } of results) {
        expect(res.stderr).not.toMatch(STACK_FRAME);
        expect(res.code, res.stderr).toBe(0);
        const out = parseJson<{ payload: Record<string, unknown> }>(res.stdout);
        expect(Object.keys(out.payload).length).toBeGreaterThanOrEqual(200_000);
        expect(box.records(dialect, `big-${dialect}`)).toMatchObject([
          { hook_name: 'reader', outcome: 'applied', exit_code: 0 },
        ]);
      }
    },
  );

  it.each(['compozy', 'cosh'] as const)(
    '%s, in-process fire(): every payload resolves or rejects with a usage error (exit 2), never another error',
    { timeout: 120_000 },
    async (dialect) => {
      const event = dialect === 'compozy' ? COMPOZY_EVENT : COSH_EVENT;
      const loc = resolveLocations({ packageRoot: repoRoot, env: box.env, workspace: box.workspace, cwd: box.root });
      const problems: string[] = [];
      for (const [i, p] of PAYLOADS.entries()) {
        const text = p.bytes().toString('utf8'); // what the command's reader hands to fire()
        try {
          const result = await fire({
            event,
            payloadText: text,
            sessionId: `inproc-${dialect}-${i}`,
            loc,
            env: box.env,
          });
          if (!p.object) problems.push(`${p.name}: ran, but it is not a JSON object`);
          if (result.runs.length !== 1 || result.runs[0]!.outcome !== 'applied')
            problems.push(`${p.name}: runs ${JSON.stringify(result.runs).slice(0, 200)}`);
        } catch (err) {
          if (!(err instanceof HookctlError))
            problems.push(`${p.name}: threw ${(err as Error).name}: ${(err as Error).message.slice(0, 200)}`);
          else if (err.exit !== 2) problems.push(`${p.name}: HookctlError exit ${err.exit}`);
          // eslint-disable-next-line no-control-regex
          else if (/[\u0000-\u001f\u007f]/.test(err.message))
            problems.push(
              `${p.name}: error message is not one clean line: ${JSON.stringify(err.message.slice(0, 200))}`,
            );
        }
      }
      expect(prototypeIsClean()).toBe(true);
      expect(problems, problems.join('\n')).toEqual([]);
    },
  );
});
