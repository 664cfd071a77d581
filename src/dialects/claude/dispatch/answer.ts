// Reading one hook's answer (claude.md §5.4): the exit code, stdout as JSON or plain text, the
// checks a JSON answer must pass, and what each exit code means on each event. Pure: the
// dispatch hands in what the process (or the http request) produced.
import type { ClaudeEventData } from '../catalog-types.js';
import { stdoutJsonError } from '../../../exec/stdout-json.js';
import { ruleHolds } from '../releases.js';

export type ClaudeDecision =
  'allow' | 'deny' | 'ask' | 'defer' | 'block' | 'stop' | 'accept' | 'decline' | 'cancel' | 'rewake';

/** What a handler produced, as the answer reader sees it. */
export type HandlerRun =
  | {
      kind: 'exited';
      /** null when a signal ended it. */
      code: number | null;
      stdout: string;
      /** The captured stderr (claude is the one dialect that reads it: exit 2's reason). */
      stderr: string;
      /** `hook command failed: exit status N (stderr: M bytes)` for a non-zero end. */
      failure?: string;
    }
  | { kind: 'timed_out'; timeoutS: number }
  | { kind: 'failed'; message: string };

export type OutputKind = 'json' | 'text' | 'empty';

export interface HookAnswer {
  outcome: 'applied' | 'denied' | 'failed';
  decision: ClaudeDecision | null;
  reason: string | null;
  /** Exit 2 made the decision. */
  blocking: boolean;
  /** How stdout (or the http body) was read; null when it was not read. */
  output: OutputKind | null;
  error?: string;
  /** The hook_error notice of a non-blocking error. */
  notice?: string;
  /** `continue: false` on an event that honours it. */
  stop: boolean;
  stopReason: string | null;
  systemMessage: string | null;
  /** additionalContext and plain-text context, in that order. */
  context: string[];
  /** How many of `context` came from additionalContext (the rest is plain stdout). */
  jsonContexts: number;
  /** For async hooks: what Claude delivers on the next turn. */
  nextTurn: string[];
  /** Every other honoured hookSpecificOutput field, by its Claude name (§5.6 step 5). */
  fields: Record<string, unknown>;
  warnings: string[];
}

export interface AnswerOptions {
  name: string;
  handlerType: string;
  async: boolean;
  asyncRewake: boolean;
  /** `onFailure: "block"` applies (claude.md §5.4, 2.1.295): a non-blocking error blocks. */
  onFailureBlock?: boolean;
}

/** Claude turns longer strings into a preview and a file path; hookctl keeps them and warns. */
export const OUTPUT_STRING_LIMIT = 10_000;

const BLOCKING_EXIT2 = new Set(['deny', 'block', 'feedback', 'decline', 'fail']);

function blank(): HookAnswer {
  return {
    outcome: 'applied',
    decision: null,
    reason: null,
    blocking: false,
    output: null,
    stop: false,
    stopReason: null,
    systemMessage: null,
    context: [],
    jsonContexts: 0,
    nextTurn: [],
    fields: {},
    warnings: [],
  };
}

function failed(error: string, notice?: string, output: OutputKind | null = null): HookAnswer {
  return { ...blank(), outcome: 'failed', error, ...(notice ? { notice } : {}), output };
}

/** The seconds of a timeout as written in messages: `600s`, `1.5s`, `0.3s`. */
export function secondsText(s: number): string {
  return `${Number(s.toFixed(3))}s`;
}

/**
 * stdout is JSON iff its first non-white-space character is `{` and all of it is one object.
 * From 2.1.248 on (`brace_stdout_error`, claude.md §5.4), stdout that starts with `{` and ends
 * with `}` but is not one JSON object is `invalid`: a hook error, not plain text.
 */
export function classifyStdout(
  stdout: string,
): { kind: 'json'; value: Record<string, unknown> } | { kind: 'text' | 'empty' } | { kind: 'invalid'; why: string } {
  const trimmed = stdout.trim();
  if (trimmed === '') return { kind: 'empty' };
  if (trimmed[0] === '{') {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        return { kind: 'json', value: value as Record<string, unknown> };
      }
    } catch {
      // plain text that happens to start with a brace, unless it also ends with one
    }
    // Before 2.1.248 such stdout was plain text, as `{…` without its closing brace still is.
    const error = trimmed.endsWith('}') && ruleHolds('brace_stdout_error') ? stdoutJsonError(stdout) : undefined;
    if (error !== undefined) return { kind: 'invalid', why: `${error.message} (${error.line}:${error.column})` };
  }
  return { kind: 'text' };
}

type FieldType = 'string' | 'boolean' | 'object' | 'array' | 'string[]' | readonly string[];

const TOP_TYPES: Readonly<Record<string, FieldType>> = {
  continue: 'boolean',
  stopReason: 'string',
  suppressOutput: 'boolean',
  systemMessage: 'string',
  terminalSequence: 'string',
  decision: 'string',
  reason: 'string',
  hookSpecificOutput: 'object',
};

const SPECIFIC_TYPES: Readonly<Record<string, FieldType>> = {
  hookEventName: 'string',
  permissionDecision: ['allow', 'deny', 'ask', 'defer'],
  permissionDecisionReason: 'string',
  additionalContext: 'string',
  updatedInput: 'object',
  sessionTitle: 'string',
  suppressOriginalPrompt: 'boolean',
  initialUserMessage: 'string',
  watchPaths: 'string[]',
  reloadSkills: 'boolean',
  displayContent: 'string',
  retry: 'boolean',
  classifierContext: 'string',
  worktreePath: 'string',
  action: ['accept', 'decline', 'cancel'],
  content: 'object',
  decision: 'object',
};

const PERMISSION_DECISION_TYPES: Readonly<Record<string, FieldType>> = {
  behavior: ['allow', 'deny'],
  updatedInput: 'object',
  updatedPermissions: 'array',
  message: 'string',
  interrupt: 'boolean',
};

function typeError(path: string, value: unknown, type: FieldType): string | undefined {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (Array.isArray(type)) {
    return typeof value === 'string' && type.includes(value) ? undefined : `${path} must be one of ${type.join(', ')}`;
  }
  const ok =
    type === 'object'
      ? isObject
      : type === 'array'
        ? Array.isArray(value)
        : type === 'string[]'
          ? Array.isArray(value) && value.every((v) => typeof v === 'string')
          : typeof value === type;
  if (ok) return undefined;
  const what = {
    string: 'a string',
    boolean: 'a boolean',
    object: 'an object',
    array: 'a list',
    'string[]': 'a list of strings',
  };
  return `${path} must be ${what[type as keyof typeof what]}`;
}

function checkFields(
  obj: Record<string, unknown>,
  types: Readonly<Record<string, FieldType>>,
  prefix: string,
): string | undefined {
  for (const [key, type] of Object.entries(types)) {
    if (!(key in obj) || obj[key] === undefined) continue;
    const err = typeError(`${prefix}${key}`, obj[key], type);
    if (err) return err;
  }
  return undefined;
}

/** The checks of a JSON answer; the first failure's message, or undefined when it passes. */
export function checkAnswer(json: Record<string, unknown>, event: string): string | undefined {
  const top = checkFields(json, TOP_TYPES, '');
  if (top) return top;
  const specific = json.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific !== undefined) {
    if (!('hookEventName' in specific)) return 'hookSpecificOutput is missing required field "hookEventName"';
    if (specific.hookEventName !== event) {
      return `hookSpecificOutput.hookEventName must be "${event}", got ${JSON.stringify(specific.hookEventName)}`;
    }
    const err = checkFields(specific, SPECIFIC_TYPES, 'hookSpecificOutput.');
    if (err) return err;
    // PreModelSwitch takes allow, deny and ask: there is no one to defer to (claude.md §5.6).
    if (event === 'PreModelSwitch' && specific.permissionDecision === 'defer')
      return 'hookSpecificOutput.permissionDecision must be one of allow, deny, ask';
    if (event === 'PermissionRequest' && specific.decision !== undefined) {
      const inner = checkFields(
        specific.decision as Record<string, unknown>,
        PERMISSION_DECISION_TYPES,
        'hookSpecificOutput.decision.',
      );
      if (inner) return inner;
    }
  }
  if ((event === 'Stop' || event === 'SubagentStop') && json.decision === 'block') {
    if (typeof json.reason !== 'string' || json.reason.trim() === '')
      return 'decision "block" requires a non-empty "reason"';
  }
  return undefined;
}

/** Fields that decide or give context; every other honoured hookSpecificOutput field is an output. */
const DECISION_FIELDS = new Set([
  'hookEventName',
  'permissionDecision',
  'permissionDecisionReason',
  'additionalContext',
  'action',
]);

interface ApplyOptions {
  /** Exit 2 decided: the JSON's own decision is not taken. */
  forced: boolean;
  /** Elicitation after exit 2 ignores its hookSpecificOutput. */
  ignoreSpecific: boolean;
}

/** Takes what a checked JSON answer says, as far as the event honours it. */
function applyJson(
  answer: HookAnswer,
  json: Record<string, unknown>,
  event: ClaudeEventData,
  opts: AnswerOptions,
  how: ApplyOptions,
): void {
  const honours = new Set(event.output_fields);
  const noEffect = (field: string) => answer.warnings.push(`${opts.name}: ${field} has no effect on ${event.name}`);
  let decision: ClaudeDecision | null = null;
  let reason: string | null = null;
  for (const key of Object.keys(json)) {
    if (key !== 'hookSpecificOutput' && !honours.has(key) && json[key] !== undefined) noEffect(key);
  }
  if (honours.has('continue') && json.continue === false) {
    answer.stop = true;
    answer.stopReason = honours.has('stopReason') && typeof json.stopReason === 'string' ? json.stopReason : null;
  }
  if (honours.has('systemMessage') && typeof json.systemMessage === 'string') answer.systemMessage = json.systemMessage;
  if (honours.has('decision') && typeof json.decision === 'string') {
    const legacy =
      event.decision_kind === 'permission'
        ? { approve: 'allow', block: 'deny' }
        : event.decision_kind === 'model_switch'
          ? { block: 'deny' } // PreModelSwitch: a block refuses the switch (claude.md §5.6)
          : { block: 'block' };
    const taken = (legacy as Record<string, ClaudeDecision>)[json.decision];
    if (taken === undefined) noEffect(`decision "${json.decision}"`);
    else {
      decision = taken;
      reason = honours.has('reason') && typeof json.reason === 'string' ? json.reason : null;
    }
  }
  const specific = json.hookSpecificOutput as Record<string, unknown> | undefined;
  if (specific !== undefined && !how.ignoreSpecific) {
    for (const [key, value] of Object.entries(specific)) {
      if (key === 'hookEventName' || value === undefined) continue;
      const path = `hookSpecificOutput.${key}`;
      if (key === 'decision' && event.name === 'PermissionRequest') {
        const d = value as Record<string, unknown>;
        for (const sub of Object.keys(d)) if (!honours.has(`${path}.${sub}`)) noEffect(`${path}.${sub}`);
        if (d.behavior === 'allow' || d.behavior === 'deny') {
          decision = d.behavior;
          reason = d.behavior === 'deny' && typeof d.message === 'string' ? d.message : null;
        }
        // Fields that go with the other behavior are ignored (updatedInput without allow).
        if (d.behavior === 'allow') {
          if (d.updatedInput !== undefined) answer.fields.updatedInput = d.updatedInput;
          if (d.updatedPermissions !== undefined) answer.fields.updatedPermissions = d.updatedPermissions;
        }
        if (d.behavior === 'deny' && d.interrupt !== undefined) answer.fields.interrupt = d.interrupt;
        continue;
      }
      if (!honours.has(path)) {
        noEffect(path);
        continue;
      }
      if (key === 'permissionDecision') {
        decision = value as ClaudeDecision; // beats the legacy top-level decision
        reason = typeof specific.permissionDecisionReason === 'string' ? specific.permissionDecisionReason : null;
      } else if (key === 'action') {
        decision = value as ClaudeDecision;
      } else if (key === 'additionalContext') {
        answer.context.push(value as string);
        answer.jsonContexts++;
      } else if (!DECISION_FIELDS.has(key)) {
        answer.fields[key] = value;
      }
    }
  }
  if (!how.forced) {
    answer.decision = decision;
    answer.reason = reason;
  } else if (answer.reason === null && (decision === 'deny' || decision === 'block')) {
    // Exit 2 decides; the JSON's own refusal reason is the reason when it gave one.
    answer.reason = reason;
  }
}

function trimmedOrNull(text: string): string | null {
  const t = text.trim();
  return t === '' ? null : t;
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0] ?? '';
}

/** Strips ANSI escape sequences (CSI and OSC). */
function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
}

const DENYING: ReadonlySet<ClaudeDecision> = new Set(['deny', 'block', 'stop', 'decline', 'cancel']);

/** Reads one handler's answer on an event; with onFailure "block", a failure blocks (claude.md §5.4). */
export function readAnswer(event: ClaudeEventData, run: HandlerRun, opts: AnswerOptions): HookAnswer {
  const answer = readAnswerOnce(event, run, opts);
  const runFailed = run.kind !== 'exited' || (run.code !== 0 && run.code !== 2);
  if (!opts.onFailureBlock || opts.async || answer.outcome !== 'failed' || !runFailed) return answer;
  if (!BLOCKING_EXIT2.has(event.exit2)) return answer;
  const decision: ClaudeDecision = event.exit2 === 'deny' ? 'deny' : event.exit2 === 'decline' ? 'decline' : 'block';
  const error = answer.error ?? 'hook failed';
  const blocked: HookAnswer = {
    ...answer,
    outcome: 'denied',
    decision,
    blocking: true,
    reason: `${error}; blocking because onFailure is "block"`,
    error,
  };
  delete blocked.notice; // a block, not a non-blocking error's notice
  return blocked;
}

function readAnswerOnce(event: ClaudeEventData, run: HandlerRun, opts: AnswerOptions): HookAnswer {
  if (run.kind === 'timed_out') {
    const error = `hook timed out after ${secondsText(run.timeoutS)}`;
    // A PreModelSwitch hook that times out blocks the switch (claude.md §5.7, 2.1.251).
    if (event.decision_kind === 'model_switch' && !opts.async) {
      const reason = `${error}; a PreModelSwitch hook that times out blocks the switch`;
      return { ...blank(), outcome: 'denied', decision: 'deny', reason, error };
    }
    return failed(error);
  }
  if (run.kind === 'failed') return failed(run.message, run.message);
  const answer = readExited(event, run, opts);
  if (answer.outcome !== 'failed') {
    if (answer.stop) answer.decision = 'stop';
    if (answer.stop && answer.stopReason !== null && !answer.blocking) answer.reason = answer.stopReason;
    answer.outcome = answer.decision !== null && DENYING.has(answer.decision) ? 'denied' : 'applied';
  }
  warnLong(answer, opts.name);
  return opts.async ? asAsync(answer, run, opts) : answer;
}

function readExited(
  event: ClaudeEventData,
  run: Extract<HandlerRun, { kind: 'exited' }>,
  opts: AnswerOptions,
): HookAnswer {
  const answer = blank();
  const code = run.code;
  if (event.decision_kind === 'worktree_path' && opts.handlerType === 'command') {
    // WorktreeCreate: never JSON; any non-zero exit fails the creation, else the last line is the path.
    answer.output = run.stdout.trim() === '' ? 'empty' : 'text';
    if (code !== 0) {
      answer.decision = 'block';
      answer.blocking = code === 2;
      answer.reason = code === 2 ? trimmedOrNull(run.stderr) : null;
      if (code !== 2) answer.error = run.failure ?? 'hook command failed';
      return answer;
    }
    const lines = stripAnsi(run.stdout)
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (lines.length > 0) answer.fields.worktreePath = lines[lines.length - 1];
    return answer;
  }
  const readsStdout = event.output_fields.length > 0;
  const stdout = readsStdout ? classifyStdout(run.stdout) : undefined;
  if (stdout !== undefined) answer.output = stdout.kind === 'invalid' ? 'json' : stdout.kind;
  const json = stdout?.kind === 'json' ? stdout.value : undefined;
  const checkError = json !== undefined ? checkAnswer(json, event.name) : undefined;
  const validJson = json !== undefined && checkError === undefined ? json : undefined;

  if (code === 2 && BLOCKING_EXIT2.has(event.exit2)) {
    answer.blocking = true;
    answer.decision = event.exit2 === 'deny' ? 'deny' : event.exit2 === 'decline' ? 'decline' : 'block';
    if (validJson !== undefined) {
      applyJson(answer, validJson, event, opts, {
        forced: true,
        ignoreSpecific: event.decision_kind === 'elicitation',
      });
    }
    if (answer.reason === null) answer.reason = trimmedOrNull(run.stderr);
    return answer;
  }
  if (validJson !== undefined) {
    // A valid JSON answer decides whatever the exit code.
    applyJson(answer, validJson, event, opts, { forced: false, ignoreSpecific: false });
    return answer;
  }
  if (stdout?.kind === 'invalid') {
    // 2.1.248: `{…}` that does not parse is a non-blocking error, whatever the (non-blocking) exit.
    return failed(
      `hook output is not valid JSON: ${stdout.why}`,
      `${event.name} hook error: hook output is not valid JSON`,
      'json',
    );
  }
  if (code === 0) {
    if (checkError !== undefined) {
      return failed(`invalid hook output: ${checkError}`, `${event.name} hook error: ${checkError}`, 'json');
    }
    if (stdout?.kind === 'text' && event.stdout_context) answer.context.push(run.stdout.trim());
    return answer;
  }
  const error = run.failure ?? `hook command failed: exit status ${code}`;
  const notice =
    code === 2
      ? event.exit2 === 'notice'
        ? (trimmedOrNull(run.stderr) ?? undefined)
        : undefined
      : `Failed with non-blocking status code: ${firstLine(run.stderr) || 'No stderr output'}`;
  return failed(error, notice, answer.output);
}

function warnLong(answer: HookAnswer, name: string): void {
  const check = (field: string, text: string | null) => {
    if (text !== null && text.length > OUTPUT_STRING_LIMIT) {
      answer.warnings.push(
        `${field} from ${name} is ${text.length} characters; Claude Code replaces strings over ${OUTPUT_STRING_LIMIT} characters with a preview and a file path`,
      );
    }
  };
  check('systemMessage', answer.systemMessage);
  answer.context.forEach((c, i) => check(i < answer.jsonContexts ? 'additionalContext' : 'stdout', c));
}

/**
 * An async hook's decisions have no effect; its context and systemMessage arrive on the next
 * turn. An asyncRewake hook that exits 2 wakes Claude with its stderr (or else its stdout).
 */
function asAsync(answer: HookAnswer, run: HandlerRun, opts: AnswerOptions): HookAnswer {
  const nextTurn = [...answer.context, ...(answer.systemMessage !== null ? [answer.systemMessage] : [])];
  const out: HookAnswer = {
    ...answer,
    decision: null,
    reason: null,
    blocking: false,
    stop: false,
    stopReason: null,
    systemMessage: null,
    context: [],
    fields: {},
    nextTurn,
  };
  if (answer.outcome !== 'failed') out.outcome = 'applied';
  if (opts.asyncRewake && run.kind === 'exited' && run.code === 2) {
    const text = trimmedOrNull(run.stderr) ?? trimmedOrNull(run.stdout);
    out.decision = 'rewake';
    out.reason = trimmedOrNull(run.stderr);
    out.outcome = 'applied';
    delete out.error;
    delete out.notice;
    if (text !== null) out.nextTurn.push(text);
  }
  return out;
}
