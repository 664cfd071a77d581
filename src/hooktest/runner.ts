// Running loaded test files (SPEC §8): select the cases (--filter), fire each through the function
// given, check its expectations, stop at the first failure with --bail. The runner knows nothing
// of the engine: the use case hands it a `fire` that runs one case for real, the unit tests one
// that returns results, so its rules are tested without processes.
import { relativeToCwd } from '../validate/relative-path.js';
import { ExitCode, HookctlError } from '../errors.js';
import { evaluateCase } from './expect.js';
import type { CaseReport, CaseResult, TestCase, TestFile, TestRunReport } from './model.js';

export type FireCase = (testCase: TestCase, testFile: TestFile) => Promise<CaseResult>;

export interface RunTestsOptions {
  fire: FireCase;
  /** The dialect that fires a case's event (the reports name it); undefined when unknown. */
  dialectOf?: (testCase: TestCase, testFile: TestFile) => Promise<string | undefined>;
  /** Run only the cases whose name contains this text. */
  filter?: string;
  bail?: boolean;
  /** Milliseconds from some fixed point (default: a monotonic clock). */
  now?: () => number;
  cwd?: string;
  /** Called as each case ends (a terminal sees progress). */
  onCase?: (report: CaseReport) => void;
}

export function selectedCases(testFile: TestFile, filter: string | undefined): TestCase[] {
  return filter === undefined ? testFile.cases : testFile.cases.filter((c) => c.name.includes(filter));
}

export async function runTests(files: readonly TestFile[], opts: RunTestsOptions): Promise<TestRunReport> {
  const now = opts.now ?? monotonicMs;
  const cwd = opts.cwd ?? process.cwd();
  const started = now();
  const cases: CaseReport[] = [];
  let bailed = false;
  outer: for (const testFile of files) {
    const shownFile = relativeToCwd(testFile.file, cwd); // one string per file, not one per case
    for (const testCase of selectedCases(testFile, opts.filter)) {
      const report = await runCase(testFile, shownFile, testCase, opts, now);
      cases.push(report);
      opts.onCase?.(report);
      if (opts.bail && report.status === 'failed') {
        bailed = remainingCases(files, testFile, testCase, opts.filter) > 0;
        break outer;
      }
    }
  }
  const failed = cases.filter((c) => c.status === 'failed').length;
  return {
    files: files.map((f) => relativeToCwd(f.file, cwd)),
    cases,
    passed: cases.length - failed,
    failed,
    bailed,
    duration_ms: Math.round(now() - started),
  };
}

async function runCase(
  testFile: TestFile,
  shownFile: string,
  testCase: TestCase,
  opts: Pick<RunTestsOptions, 'fire' | 'dialectOf'>,
  now: () => number,
): Promise<CaseReport> {
  const dialect = await opts.dialectOf?.(testCase, testFile).catch(() => undefined);
  const report = (status: CaseReport['status'], duration: number, unmet: CaseReport['unmet']): CaseReport => {
    // Every report is kept until the run ends (the JSON and JUnit documents list them all): one
    // literal of a fixed key order per kind, so all of them share one hidden class. Built with
    // spreads (`{ ...base, ...(dialect ? { dialect } : {}) }`) each report had a hidden class and
    // descriptor array of its own, ~500 bytes per case kept to the end (issue 24).
    const { name, event, position, dryRun } = testCase;
    const suite = testFile.name;
    return dialect === undefined
      ? { file: shownFile, suite, name, event, position, dryRun, status, duration_ms: duration, unmet }
      : { file: shownFile, suite, name, event, dialect, position, dryRun, status, duration_ms: duration, unmet };
  };
  const started = now();
  try {
    const result = await opts.fire(testCase, testFile);
    const unmet = evaluateCase(testCase, result);
    return report(unmet.length === 0 ? 'passed' : 'failed', Math.round(now() - started), unmet);
  } catch (err) {
    // A case that cannot be fired (declarations with errors, an unreadable workspace) fails with
    // the engine's own message; the other cases still run.
    const failed = report('failed', Math.round(now() - started), []);
    failed.error = (err as Error).message;
    if (err instanceof HookctlError && err.details.length > 0) failed.errorDetails = [...err.details];
    return failed;
  }
}

function remainingCases(
  files: readonly TestFile[],
  file: TestFile,
  testCase: TestCase,
  filter: string | undefined,
): number {
  let seen = false;
  let left = 0;
  for (const f of files) {
    for (const c of selectedCases(f, filter)) {
      if (seen) left++;
      else if (f === file && c === testCase) seen = true;
    }
  }
  return left;
}

/** SPEC §8: 0 when every case passed (or none ran, which only --pass-with-no-tests lets through), 1 when one failed. */
export function testRunExitCode(report: Pick<TestRunReport, 'failed'>): number {
  return report.failed > 0 ? ExitCode.no : ExitCode.ok;
}

function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
