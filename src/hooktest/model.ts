// The data of `hooks test` (SPEC §8): a loaded test file, its cases and their expectations, what
// firing one case gave, and the report every format reads. Types only, so importing this file
// loads nothing.

/** Exact text, or a regular expression written `/pattern/flags`. */
export type TextPattern = { kind: 'exact'; text: string } | { kind: 'regex'; source: string; flags: string };

export interface Expectations {
  verdict?: string;
  exit_code?: number;
  reason?: TextPattern;
  ran?: string[];
  not_ran?: string[];
  outcomes?: Record<string, string>;
  payload?: Record<string, unknown>;
  context?: TextPattern;
  max_duration_ms?: number;
}

/** Where something is written in a test file (1-based). */
export interface FilePosition {
  line: number;
  column?: number;
}

export interface TestCase {
  name: string;
  event: string;
  /** The case's (else the file's) `dialect`, as `fire --dialect`; undefined = the registry decides. */
  dialect?: string;
  payload: Record<string, unknown>;
  /** Run only these hooks (as `fire --hook`); undefined = every hook of the event. */
  hooks?: string[];
  dryRun: boolean;
  /** `trust_all: true`: as `fire --trust-all` (hooks the runtime skips until trusted run too). */
  trustAll?: boolean;
  /** undefined (or an empty map): the case passes when the dispatch did not fail. */
  expect?: Expectations;
  /** Where the case's list item starts: JUnit and GitHub annotations point here. */
  position: FilePosition;
  /** Where its `event` key is written, and each name of `hooks`/`ran`/`not_ran`/`outcomes` (for exit 2 checks). */
  eventPosition: FilePosition;
  namePositions: { name: string; position: FilePosition }[];
  /** Where `expect.verdict` is written (its word is checked against the case's dialect). */
  verdictPosition?: FilePosition;
}

export interface TestFile {
  /** Absolute path. */
  file: string;
  /** `name`, else the file name. */
  name: string;
  /** Absolute; undefined = the command's workspace. */
  workspace?: string;
  env: Record<string, string>;
  cases: TestCase[];
}

/** One run as a test sees it. */
export interface CaseRun {
  hook: string;
  outcome: string;
  duration_ms: number;
}

/** What firing one case gave, in the dialect's own verdict words. */
export type CaseResult =
  | {
      kind: 'dispatch';
      verdict: string;
      exitCode: number;
      /** The dispatch failed (exit 3: a required hook failed, depth exceeded). */
      failed: boolean;
      /** The deny or decision reason; null when there is none. */
      reason: string | null;
      /** cosh/claude `additional_context`; null when there is none. */
      context: string | null;
      error: string | null;
      payload: Record<string, unknown>;
      /** In the order they ran: the sync chain, then the async hooks, each in dispatch order. */
      runs: CaseRun[];
    }
  | {
      kind: 'plan';
      /** The hooks that would run, in the order they would run (sync, then async). */
      wouldRun: string[];
    };

/** One difference between an expected payload subset and the final payload. */
export interface PayloadDifference {
  /** `tool_input.path`, `args[0]` (empty: the payload itself). */
  path: string;
  expected: unknown;
  /** undefined: the key is absent. */
  actual: unknown;
}

/** One expectation a case did not meet. */
export interface Unmet {
  /** The expect key (`verdict`, `outcomes.<hook>`, …), or `dispatch` for a case with no expect. */
  key: string;
  expected: unknown;
  actual: unknown;
  /** One line: `verdict: expected "denied", got "completed"`. */
  message: string;
  /** payload only. */
  differences?: PayloadDifference[];
}

export interface CaseReport {
  /** As shown: relative to the current directory when inside it. */
  file: string;
  suite: string;
  name: string;
  event: string;
  /** The dialect that fired (or would fire) the case's event; undefined when none was chosen. */
  dialect?: string;
  position: FilePosition;
  dryRun: boolean;
  status: 'passed' | 'failed';
  duration_ms: number;
  unmet: Unmet[];
  /** Firing the case threw (declarations with errors, a bad workspace): the error's message. */
  error?: string;
  errorDetails?: string[];
}

export interface TestRunReport {
  files: string[];
  cases: CaseReport[];
  passed: number;
  failed: number;
  /** --bail stopped the run before every selected case ran. */
  bailed: boolean;
  duration_ms: number;
}
