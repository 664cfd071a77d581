// The `hooks test` use case (SPEC §8): find and load the test files, check that every case names
// a known event and declared hooks, then run each case through the fire use case — the real
// loaders, matcher, order, executor and dialect rules — with a fresh session whose records go to
// a temporary ledger, never the user's. Also `--init`: a starter file for one event's hooks.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '../declarations/diagnostics.js';
import type { OrderedDeclaration } from '../declarations/model.js';
import type { Dialect, DialectCatalog } from '../dialects/types.js';
import { ExitCode, HookctlError, usageError } from '../errors.js';
import type { HooktestCode } from '../hooktest/codes.js';
import { findTestFiles } from '../hooktest/discover.js';
import { ranHooks } from '../hooktest/expect.js';
import { loadTestFile } from '../hooktest/load.js';
import type { CaseReport, CaseResult, TestCase, TestFile, TestRunReport } from '../hooktest/model.js';
import { runTests, selectedCases } from '../hooktest/runner.js';
import { payloadSkeleton, starterTestFile, untypedFields, type StarterCase } from '../hooktest/starter.js';
import { newSessionId } from '../ledger/ids.js';
import { didYouMean } from '../matching/suggest.js';
import type { Locations } from '../paths.js';
import { displayPath } from '../display-path.js';
import {
  assertDispatchable,
  declarationsOf,
  fireLoaded,
  hasSourceErrors,
  loadEventCatalog,
  planLoaded,
  type EventCatalog,
  type FireResult,
} from './fire.js';

export interface HookTestRequest {
  paths: string[];
  /** `--dialect`: the dialect of cases whose file names none. */
  dialect?: string;
  loc: Locations;
  env: NodeJS.ProcessEnv;
  filter?: string;
  bail?: boolean;
  /** `--pass-with-no-tests`: finding no test file or no case is a pass (exit 0), not exit 2. */
  passWithNoTests?: boolean;
  onCase?: (report: CaseReport) => void;
  cwd?: string;
}

export type HookTestOutcome =
  { kind: 'invalid'; files: string[]; diagnostics: Diagnostic[] } | { kind: 'report'; report: TestRunReport };

export async function runHookTests(req: HookTestRequest): Promise<HookTestOutcome> {
  const cwd = req.cwd ?? process.cwd();
  const files = await findTestFiles(req.paths, req.loc.workspace, cwd);
  if (files.length === 0 && !req.passWithNoTests) throw noTestFiles(req.paths, req.loc.workspace, cwd);
  const loaded = await Promise.all(files.map((f) => loadTestFile(f)));
  const invalid = loaded.flatMap((l) => l.diagnostics);
  if (invalid.length > 0) return { kind: 'invalid', files, diagnostics: invalid };
  const testFiles = loaded.map((l) => l.testFile!);
  if (files.length > 0 && !req.passWithNoTests && testFiles.every((f) => selectedCases(f, req.filter).length === 0))
    throw noTestCases(files, req.filter);

  const engine = new CaseEngine(req.loc, req.env, req.dialect);
  try {
    const nameProblems: Diagnostic[] = [];
    for (const testFile of testFiles) {
      for (const testCase of selectedCases(testFile, req.filter))
        nameProblems.push(...(await engine.check(testCase, testFile)));
    }
    if (nameProblems.length > 0) return { kind: 'invalid', files, diagnostics: nameProblems };

    const report = await runTests(testFiles, {
      fire: (testCase, testFile) => engine.fire(testCase, testFile),
      dialectOf: async (testCase, testFile) => (await engine.catalogFor(testCase, testFile)).dialect.name,
      filter: req.filter,
      bail: req.bail,
      onCase: req.onCase,
      cwd,
    });
    return { kind: 'report', report };
  } finally {
    await engine.close();
  }
}

/**
 * Nothing to test is not a pass (as pytest and vitest): a misspelt folder, or a `--filter` that
 * matches no case, must not make CI green. A usage error (exit 2), as a PATH that does not exist.
 */
function noTestFiles(paths: readonly string[], workspace: string, cwd: string): HookctlError {
  const roots = paths.length === 0 ? [workspace] : paths;
  const where = roots.map((p) => `"${displayPath(resolve(cwd, p), cwd)}"`).join(', ');
  return new HookctlError(
    'no_test_files',
    `no test files (*.hooktest.yaml, *.hooktest.yml, *.hooktest.json) found in ${where}; pass --pass-with-no-tests to exit 0`,
    ExitCode.usage,
  );
}

function noTestCases(files: readonly string[], filter: string | undefined): HookctlError {
  const inFiles = `${files.length} test file${files.length === 1 ? '' : 's'}`;
  const what =
    filter === undefined ? `no test cases in ${inFiles}` : `no test case of ${inFiles} matches --filter "${filter}"`;
  return new HookctlError('no_test_cases', `${what}; pass --pass-with-no-tests to exit 0`, ExitCode.usage);
}

/**
 * Fires cases. A test file's catalog of each dialect is loaded once and shared by its cases (the
 * file's workspace and env decide what the loaders read). Every case gets a new session, whose
 * records go to `<ledger root>/<session>/hook-runs.jsonl` in a folder this run made for itself
 * (each session removed when its case ends, the folder by close()): cases, and concurrent test runs, never see each other's records, and
 * nothing reaches the user's sessions folders.
 */
class CaseEngine {
  private readonly catalogs = new Map<string, Promise<DialectCatalog>>();
  private ledgerRoot: Promise<string> | undefined;

  constructor(
    private readonly loc: Locations,
    private readonly env: NodeJS.ProcessEnv,
    private readonly defaultDialect?: string,
  ) {}

  async close(): Promise<void> {
    if (this.ledgerRoot) await rm(await this.ledgerRoot, { recursive: true, force: true });
  }

  private readonly places = new Map<TestFile, { loc: Locations; env: NodeJS.ProcessEnv }>();

  /** The file's workspace and environment, made once per file: copying the environment is not free. */
  private where(testFile: TestFile): { loc: Locations; env: NodeJS.ProcessEnv } {
    let place = this.places.get(testFile);
    if (!place) {
      const loc = testFile.workspace === undefined ? this.loc : { ...this.loc, workspace: testFile.workspace };
      place = { loc, env: { ...this.env, ...testFile.env } };
      this.places.set(testFile, place);
    }
    return place;
  }

  catalogFor(testCase: Pick<TestCase, 'event' | 'dialect'>, testFile: TestFile): Promise<EventCatalog> {
    const { loc, env } = this.where(testFile);
    const dialectName = testCase.dialect ?? this.defaultDialect;
    return loadEventCatalog({ event: testCase.event, dialect: dialectName, loc, env }, (dialect: Dialect) => {
      const key = `${testFile.file}\0${dialect.name}`;
      let catalog = this.catalogs.get(key);
      if (!catalog) this.catalogs.set(key, (catalog = dialect.loadCatalog(loc, env)));
      return catalog;
    });
  }

  /** exit-2 problems of a case: an event no dialect knows, a hook name not declared for it. */
  async check(testCase: TestCase, testFile: TestFile): Promise<Diagnostic[]> {
    const problem = (code: HooktestCode, message: string, at: TestCase['position']): Diagnostic => {
      const d: Diagnostic = { severity: 'error', code, message, file: testFile.file, line: at.line };
      if (at.column !== undefined) d.column = at.column;
      return d;
    };
    let loaded: EventCatalog;
    try {
      loaded = await this.catalogFor(testCase, testFile);
    } catch (err) {
      if (err instanceof HookctlError && err.exit === ExitCode.usage) {
        const code = err.code === 'ambiguous_dialect' ? 'hooktest_ambiguous_event' : 'hooktest_unknown_event';
        return [problem(code, err.message, testCase.eventPosition)];
      }
      throw err;
    }
    // Sources with errors cannot say which hooks they declare: the case fails with fire's refusal,
    // which names the errors, rather than with a name check that blames the test file.
    if (hasSourceErrors(loaded.catalog)) return [];
    const declared = declarationsOf(loaded.catalog, testCase.event).flatMap((d) => (d.name === null ? [] : [d.name]));
    const problems = testCase.namePositions
      .filter((n) => !declared.includes(n.name))
      .map((n) =>
        problem(
          'hooktest_unknown_hook',
          `hook "${n.name}" is not declared for event "${testCase.event}"${didYouMean(n.name, declared)}`,
          n.position,
        ),
      );
    // A verdict word of another dialect (`denied` for claude) could never be met: a typo, not a failure.
    const verdict = testCase.expect?.verdict;
    const words = loaded.dialect.verdicts;
    if (verdict !== undefined && words !== undefined && !words.includes(verdict)) {
      const hint = didYouMean(verdict, words) || ` (one of: ${words.join(', ')})`;
      problems.push(
        problem(
          'hooktest_unknown_verdict',
          `verdict "${verdict}" is not a ${loaded.dialect.name} verdict${hint}`,
          testCase.verdictPosition ?? testCase.position,
        ),
      );
    }
    return problems;
  }

  async fire(
    testCase: Pick<TestCase, 'event' | 'dialect' | 'payload' | 'hooks' | 'dryRun' | 'trustAll'>,
    testFile: TestFile,
  ): Promise<CaseResult> {
    const loaded = await this.catalogFor(testCase, testFile);
    assertDispatchable(loaded);
    const { loc, env } = this.where(testFile);
    const req = {
      event: testCase.event,
      loc,
      env,
      payload: testCase.payload,
      hooks: testCase.hooks,
      ...(testCase.trustAll === true ? { options: { trustAll: true } } : {}),
    };
    if (testCase.dryRun) {
      const { plan } = await planLoaded(loaded, req);
      // What a fire would run: not what it would record as skipped (PlanEntry.runnable).
      const wouldRun = plan.filter(
        (p) => p.matched && p.status === 'active' && p.runnable !== false && p.name !== null,
      );
      return {
        kind: 'plan',
        wouldRun: runOrder(
          wouldRun,
          (p) => p.mode === 'async',
          (p) => plan.indexOf(p),
        ).map((p) => p.name!),
      };
    }
    this.ledgerRoot ??= mkdtemp(join(tmpdir(), 'hookctl-test-'));
    const sessionsDir = await this.ledgerRoot;
    const sessionId = newSessionId();
    try {
      return caseResult(loaded, await fireLoaded(loaded, { ...req, sessionId, sessionsDir }));
    } finally {
      // Nothing reads a case's records once it has ended: its session goes now. Left to close(),
      // 10,000 session folders were removed at once at the end, a 60 MB peak of the run (issue 24).
      await rm(join(sessionsDir, sessionId), { recursive: true, force: true });
    }
  }
}

/**
 * The order in which a dispatch runs its hooks: the sync chain first, then the async hooks (queued
 * only once the chain has ended, SPEC §3.1), each part in dispatch order.
 */
function runOrder<T>(items: readonly T[], isAsync: (item: T) => boolean, position: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort(
      (a, b) => Number(isAsync(a.item)) - Number(isAsync(b.item)) || position(a.item) - position(b.item) || a.i - b.i,
    )
    .map(({ item }) => item);
}

/** A fire result as a test sees it: runs in the order they ran, the verdict words of the dialect. */
function caseResult(loaded: EventCatalog, result: FireResult): CaseResult {
  const exitCode = loaded.dialect.exitCode(result);
  const order = new Map<string, number>();
  declarationsOf(loaded.catalog, result.event).forEach((d, i) => {
    if (d.name !== null && !order.has(d.name)) order.set(d.name, i);
  });
  const position = (name: string | null) => (name === null ? Infinity : (order.get(name) ?? Infinity));
  // Async runs are recorded as they end: sorted into the order they started, so `ran` is stable.
  const runs = runOrder(
    result.runs,
    (r) => r.mode === 'async',
    (r) => position(r.hook_name),
  ).map((r) => ({ hook: r.hook_name ?? '', outcome: r.outcome, duration_ms: r.duration_ms }));
  return {
    kind: 'dispatch',
    verdict: result.verdict,
    exitCode,
    failed: exitCode === ExitCode.dispatchFailed,
    reason: text(result.deny_reason) ?? text(result.reason),
    context: text(result.additional_context),
    error: result.error,
    payload: result.payload,
    runs,
  };
}

function text(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

// ---------------------------------------------------------------------------------------------
// --init

export interface InitRequest {
  event: string;
  dialect?: string;
  /** Where to write; default `<workspace>/<event>.hooktest.yaml`. */
  file?: string;
  loc: Locations;
  env: NodeJS.ProcessEnv;
  cwd?: string;
}

export async function initHookTests(req: InitRequest): Promise<{ file: string; cases: number }> {
  const target = resolve(req.cwd ?? process.cwd(), req.file ?? join(req.loc.workspace, `${req.event}.hooktest.yaml`));
  if (existsSync(target)) throw starterExists(target); // before any hook runs
  const testFile: TestFile = { file: target, name: req.event, env: {}, cases: [] };
  const engine = new CaseEngine(req.loc, req.env, req.dialect);
  try {
    return await writeStarter(engine, req, target, testFile);
  } finally {
    await engine.close();
  }
}

async function writeStarter(
  engine: CaseEngine,
  req: InitRequest,
  target: string,
  testFile: TestFile,
): Promise<{ file: string; cases: number }> {
  const loaded = await engine.catalogFor({ event: req.event, dialect: req.dialect }, testFile); // unknown event: exit 2
  assertDispatchable(loaded);
  // One case per hook name, for its first runnable declaration.
  const byName = new Map<string, OrderedDeclaration>();
  for (const d of declarationsOf(loaded.catalog, req.event))
    if (d.status === 'active' && d.enabled && d.name !== null && !byName.has(d.name)) byName.set(d.name, d);
  const hooks = [...byName.keys()];
  if (hooks.length === 0) {
    throw new HookctlError(
      'no_hooks',
      `no hooks declared for event "${req.event}" (see: hookctl hooks list --event ${req.event})`,
      ExitCode.no,
    );
  }
  const base = { event: req.event, dialect: loaded.dialect.name, dryRun: false };
  // The fields the dialect fills in an empty payload are the engine's: the skeleton leaves them out.
  const filled = await engine.fire({ ...base, payload: {}, hooks: [] }, testFile);
  const omit = new Set(filled.kind === 'dispatch' ? Object.keys(filled.payload) : []);
  const schemas = await loaded.dialect.eventSchemas(req.event);
  const payload = payloadSkeleton(schemas?.payload, omit);
  const untyped = untypedFields(schemas?.payload, omit);
  const cases: StarterCase[] = [];
  for (const hook of hooks) {
    // What this hook's own matcher needs (claude: its group's tool_name), so the case runs it.
    const own = (await loaded.dialect.starterPayload?.(byName.get(hook)!, payload)) ?? payload;
    let observed = await engine.fire({ ...base, payload: own, hooks: [hook] }, testFile);
    // A hook its runtime skips until trusted (codex: every new hook) would give a case that tests
    // nothing: when trusting it makes it run, the case says `trust_all: true` and expects that.
    let trustAll = false;
    if (observed.kind === 'dispatch' && ranHooks(observed.runs).length === 0) {
      const trusted = await engine.fire({ ...base, payload: own, hooks: [hook], trustAll: true }, testFile);
      if (trusted.kind === 'dispatch' && ranHooks(trusted.runs).length > 0) {
        observed = trusted;
        trustAll = true;
      }
    }
    cases.push({ hook, observed, ...(own !== payload ? { payload: own } : {}), ...(trustAll ? { trustAll } : {}) });
  }
  const text = starterTestFile({
    event: req.event,
    dialect: loaded.dialect.name,
    workspace: relative(dirname(target), req.loc.workspace) || '.',
    payload,
    untyped,
    cases,
  });
  try {
    await writeFile(target, text, { flag: 'wx' }); // never replaces a file
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw starterExists(target);
    throw usageError(`cannot write "${target}": ${code ?? (err as Error).message}`, 'test_file_unwritable');
  }
  return { file: target, cases: cases.length };
}

function starterExists(target: string): HookctlError {
  return usageError(`test file "${target}" already exists`, 'test_file_exists');
}
