// Reading one codex hook's answer (codex.md §5.4) and the strict check of its JSON (§5.5): the
// exit code first, then stdout decoded against the event's fields, where any unknown key, wrong
// type or broken rule fails the hook (which fails open). Pure: no process, no file.
import type { CodexEventData } from '../catalog-types.js';
import { codexEvent } from '../catalog.js';

/** What became of the hook's process. */
export type CodexRun =
  | { kind: 'failed'; message: string }
  | { kind: 'timed_out'; timeoutS: number }
  | { kind: 'exited'; code: number | null; signal: string | null; stdout: string; stderr: string };

export type CodexDecision = 'deny' | 'allow' | 'block' | 'stop' | 'feedback';
export type CodexStatus = 'completed' | 'blocked' | 'stopped' | 'failed';
export type CodexOutputKind = 'json' | 'text' | 'empty';

export interface CodexAnswer {
  outcome: 'applied' | 'denied' | 'failed';
  decision: CodexDecision | null;
  codexStatus: CodexStatus;
  /** The decision's reason (after exit 2, the trimmed stderr); null when none. */
  reason: string | null;
  /** `stopReason` of an answer that stops (`continue: false`). */
  stopReason: string | null;
  /** The record's `error`: why the hook failed. */
  error?: string;
  output: CodexOutputKind;
  /** From an answer that decoded, whether or not the rest of it is used. */
  systemMessage: string | null;
  /** An honoured `additionalContext`, or plain stdout taken as context. */
  context: string | null;
  /** PreToolUse `allow` + `updatedInput`. */
  updatedInput?: unknown;
  /** PostToolUse: what Codex hands the model (block reason, exit-2 feedback, a stop's text). */
  feedback: string | null;
  timedOut: boolean;
  /** For stderr (the hook's name is added by the caller). */
  warnings: string[];
}

/** `hook timed out after <n>s` (§5.6). */
export function timeoutMessage(timeoutS: number): string {
  return `hook timed out after ${timeoutS}s`;
}

/** The events whose exit and signal errors are Codex's own wording (§5.4). */
const TERMINATION_WORDING = new Set(['PreCompact', 'PostCompact', 'SessionEnd']);

const UNIVERSAL: Readonly<Record<string, 'boolean' | 'string'>> = {
  continue: 'boolean',
  stopReason: 'string',
  suppressOutput: 'boolean',
  systemMessage: 'string',
};

function base(output: CodexOutputKind): CodexAnswer {
  return {
    outcome: 'applied',
    decision: null,
    codexStatus: 'completed',
    reason: null,
    stopReason: null,
    output,
    systemMessage: null,
    context: null,
    feedback: null,
    timedOut: false,
    warnings: [],
  };
}

function failed(error: string, output: CodexOutputKind = 'empty', extra: Partial<CodexAnswer> = {}): CodexAnswer {
  return { ...base(output), outcome: 'failed', codexStatus: 'failed', error, ...extra };
}

/** A decision's outcome and Codex's status: a deny, block or stop is `denied`. */
function decided(answer: CodexAnswer, decision: CodexDecision, reason: string | null): CodexAnswer {
  answer.decision = decision;
  answer.reason = reason;
  if (decision === 'deny' || decision === 'block') {
    answer.outcome = 'denied';
    answer.codexStatus = 'blocked';
  } else if (decision === 'stop') {
    answer.outcome = 'denied';
    answer.codexStatus = 'stopped';
  } else if (decision === 'feedback') {
    // Codex hands exit-2 feedback to the model as it does a block's reason (§5.7 rule 3).
    answer.codexStatus = 'blocked';
  }
  return answer;
}

const trimmedNonBlank = (s: unknown): string | null => (typeof s === 'string' && s.trim() !== '' ? s.trim() : null);

/** §5.4: one run's answer on `event`. */
export function readCodexAnswer(event: CodexEventData, run: CodexRun): CodexAnswer {
  if (run.kind === 'failed') return failed(run.message);
  if (run.kind === 'timed_out') return failed(timeoutMessage(run.timeoutS), 'empty', { timedOut: true });
  const stdoutKind = outputKind(run.stdout);
  if (run.code === null) {
    return failed(
      TERMINATION_WORDING.has(event.name)
        ? 'hook process terminated without an exit code'
        : 'hook exited without a status code',
      stdoutKind,
    );
  }
  if (run.code === 2 && event.exit2 !== null) {
    const reason = trimmedNonBlank(run.stderr);
    if (reason === null) return failed(event.exit2_empty_error ?? `hook exited with code 2`, stdoutKind);
    const answer = decided(base(stdoutKind), event.exit2, reason);
    if (event.exit2 === 'feedback') answer.feedback = reason;
    return answer;
  }
  if (run.code !== 0) {
    // Codex reports the trimmed stderr as the error on these events (§5.4); stderr never lands in
    // a record or an export (SPEC §5: only an exit-2 reason does, §6), so the record keeps the exit
    // code and the person at the terminal gets Codex's wording as a warning.
    const answer = failed(`hook exited with code ${run.code}`, stdoutKind);
    const stderr = TERMINATION_WORDING.has(event.name) ? trimmedNonBlank(run.stderr) : null;
    if (stderr !== null) answer.warnings.push(`Codex reports this failure as: ${firstLine(stderr, 200)}`);
    return answer;
  }
  // exit 0
  if (event.plain_stdout === 'not_read' || stdoutKind === 'empty') return base(stdoutKind);
  const text = run.stdout.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return failed(invalidJson(event), 'text');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return failed(invalidJson(event), 'text');
    return checkAnswer(event, value as Record<string, unknown>);
  }
  if (event.plain_stdout === 'context') return { ...base('text'), context: text };
  if (event.plain_stdout === 'failed') return failed(event.plain_stdout_error ?? invalidJson(event), 'text');
  return base('text');
}

function outputKind(stdout: string): CodexOutputKind {
  const text = stdout.trim();
  if (text === '') return 'empty';
  if (text.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(text);
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) return 'json';
    } catch {
      // text
    }
  }
  return 'text';
}

function invalidJson(event: CodexEventData): string {
  return event.invalid_json_error ?? `hook returned invalid ${event.name} hook JSON output`;
}

// ---- decoding (serde with deny_unknown_fields) ----

class DecodeError extends Error {}

/** A field's value: `null` counts as absent (serde's Option). */
function get(obj: Record<string, unknown>, key: string, type: 'string' | 'boolean' | 'object' | 'any'): unknown {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (type === 'any') return v;
  if (type === 'object') {
    if (typeof v !== 'object' || Array.isArray(v)) throw new DecodeError(key);
    return v;
  }
  if (typeof v !== type) throw new DecodeError(key);
  return v;
}

function onlyKeys(obj: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  for (const key of Object.keys(obj)) if (!allowed.has(key)) throw new DecodeError(key);
}

function oneOf<T extends string>(v: unknown, values: readonly T[], key: string): T | undefined {
  if (v === undefined) return undefined;
  if (!values.includes(v as T)) throw new DecodeError(key);
  return v as T;
}

interface Decoded {
  continue: boolean;
  stopReason?: string;
  suppressOutput: boolean;
  systemMessage?: string;
  decision?: string;
  reason?: string;
  /** hookSpecificOutput, its keys checked; undefined when absent. */
  specific?: Record<string, unknown>;
}

/** The event's answer keys: the universal ones and `output_fields` (Interrupt: systemMessage only). */
function topLevelKeys(event: CodexEventData): Set<string> {
  if (event.name === 'Interrupt') return new Set(event.output_fields);
  return new Set([...Object.keys(UNIVERSAL), ...event.output_fields]);
}

/** Keys `hookSpecificOutput` may hold: the honoured ones and those decoded only to be refused. */
function specificKeys(event: CodexEventData): Set<string> {
  const keys = new Set(event.hook_specific_fields);
  for (const f of event.unsupported_output_fields) {
    if (f.startsWith('hookSpecificOutput.')) keys.add(f.slice('hookSpecificOutput.'.length));
  }
  return keys;
}

const PERMISSION_DECISION_KEYS = new Set(['behavior', 'updatedInput', 'updatedPermissions', 'message', 'interrupt']);

function decode(event: CodexEventData, obj: Record<string, unknown>, warnings: string[]): Decoded {
  onlyKeys(obj, topLevelKeys(event));
  const d: Decoded = {
    continue: (get(obj, 'continue', 'boolean') as boolean | undefined) ?? true,
    suppressOutput: (get(obj, 'suppressOutput', 'boolean') as boolean | undefined) ?? false,
  };
  const stopReason = get(obj, 'stopReason', 'string') as string | undefined;
  if (stopReason !== undefined) d.stopReason = stopReason;
  const systemMessage = get(obj, 'systemMessage', 'string') as string | undefined;
  if (systemMessage !== undefined) d.systemMessage = systemMessage;
  const decisions = event.name === 'PreToolUse' ? (['approve', 'block'] as const) : (['block'] as const);
  const decision = oneOf(get(obj, 'decision', 'string'), decisions, 'decision');
  if (decision !== undefined) d.decision = decision;
  const reason = get(obj, 'reason', 'string') as string | undefined;
  if (reason !== undefined) d.reason = reason;
  const specific = get(obj, 'hookSpecificOutput', 'object') as Record<string, unknown> | undefined;
  if (specific !== undefined) {
    onlyKeys(specific, specificKeys(event));
    const name = get(specific, 'hookEventName', 'string');
    if (typeof name !== 'string' || codexEvent(name) === undefined) throw new DecodeError('hookEventName');
    // [ours] Codex does not say whether it compares the name with the fired event (codex-sources D4).
    if (name !== event.name) {
      warnings.push(`hookSpecificOutput.hookEventName "${name}" is not the fired event "${event.name}"; accepted`);
    }
    get(specific, 'additionalContext', 'string');
    get(specific, 'permissionDecisionReason', 'string');
    oneOf(get(specific, 'permissionDecision', 'string'), ['allow', 'deny', 'ask'], 'permissionDecision');
    if (event.name === 'PermissionRequest') {
      const pd = get(specific, 'decision', 'object') as Record<string, unknown> | undefined;
      if (pd !== undefined) {
        onlyKeys(pd, PERMISSION_DECISION_KEYS);
        if (oneOf(get(pd, 'behavior', 'string'), ['allow', 'deny'], 'behavior') === undefined)
          throw new DecodeError('behavior');
        get(pd, 'message', 'string');
        get(pd, 'interrupt', 'boolean');
        get(pd, 'updatedPermissions', 'any');
      }
    }
    d.specific = specific;
  }
  return d;
}

// ---- the rules (§5.5) ----

/** A JSON object on stdout after exit 0: decoded, then checked by the event's rules. */
export function checkAnswer(event: CodexEventData, obj: Record<string, unknown>): CodexAnswer {
  const warnings: string[] = [];
  let d: Decoded;
  try {
    d = decode(event, obj, warnings);
  } catch (e) {
    if (e instanceof DecodeError) return failed(invalidJson(event), 'json');
    throw e;
  }
  const answer = base('json');
  answer.warnings = warnings;
  answer.systemMessage = d.systemMessage ?? null;
  // A failed check keeps only systemMessage (§5.5).
  const fail = (message: string): CodexAnswer => ({
    ...failed(message, 'json'),
    systemMessage: answer.systemMessage,
    warnings,
  });
  const context = event.additional_context ? ((d.specific?.additionalContext as string | undefined) ?? null) : null;
  const E = event.name;

  switch (E) {
    case 'PreToolUse': {
      if (!d.continue) return fail(`${E} hook returned unsupported continue:false`);
      if (d.stopReason !== undefined) return fail(`${E} hook returned unsupported stopReason`);
      if (d.suppressOutput) return fail(`${E} hook returned unsupported suppressOutput`);
      answer.context = context;
      const s = d.specific ?? {};
      const pd = s.permissionDecision ?? undefined;
      const pdr = s.permissionDecisionReason ?? undefined;
      const updated = s.updatedInput ?? undefined;
      if (pd !== undefined || pdr !== undefined || updated !== undefined) {
        if (updated !== undefined && pd !== 'allow')
          return fail(`${E} hook returned updatedInput without permissionDecision:allow`);
        if (pd === 'allow' && updated === undefined)
          return fail(`${E} hook returned unsupported permissionDecision:allow`);
        if (pd === 'ask') return fail(`${E} hook returned unsupported permissionDecision:ask`);
        if (pd === 'deny') {
          const why = trimmedNonBlank(pdr);
          if (why === null)
            return fail(`${E} hook returned permissionDecision:deny without a non-empty permissionDecisionReason`);
          return decided(answer, 'deny', why);
        }
        if (pd === undefined) return fail(`${E} hook returned permissionDecisionReason without permissionDecision`);
        answer.updatedInput = updated;
        return decided(answer, 'allow', trimmedNonBlank(pdr));
      }
      if (d.decision === 'approve') return fail(`${E} hook returned unsupported decision:approve`);
      if (d.decision === 'block') {
        const why = trimmedNonBlank(d.reason);
        if (why === null) return fail(`${E} hook returned decision:block without a non-empty reason`);
        return decided(answer, 'block', why);
      }
      if (d.reason !== undefined) return fail(`${E} hook returned reason without decision`);
      return answer;
    }
    case 'PermissionRequest': {
      if (!d.continue) return fail(`${E} hook returned unsupported continue:false`);
      if (d.stopReason !== undefined) return fail(`${E} hook returned unsupported stopReason`);
      if (d.suppressOutput) return fail(`${E} hook returned unsupported suppressOutput`);
      const pd = d.specific?.decision as Record<string, unknown> | undefined | null;
      if (pd === undefined || pd === null) return answer;
      for (const f of ['updatedInput', 'updatedPermissions'] as const) {
        if (pd[f] !== undefined && pd[f] !== null) return fail(`${E} hook returned unsupported ${f}`);
      }
      if (pd.interrupt === true) return fail(`${E} hook returned unsupported interrupt:true`);
      if (pd.behavior === 'allow') return decided(answer, 'allow', null);
      return decided(answer, 'deny', trimmedNonBlank(pd.message) ?? `${E} hook denied approval`);
    }
    case 'PostToolUse': {
      if (!d.continue) return stopAnswer(event, d, answer, context, postToolUseProblem(d) === undefined);
      const problem = postToolUseProblem(d);
      if (problem !== undefined) return fail(problem);
      answer.context = context;
      if (d.decision === 'block') {
        const why = trimmedNonBlank(d.reason)!;
        answer.feedback = why;
        return decided(answer, 'block', why);
      }
      return answer;
    }
    case 'UserPromptSubmit':
    case 'Stop':
    case 'SubagentStop': {
      const problem =
        d.decision === 'block' && trimmedNonBlank(d.reason) === null
          ? `${E} hook returned decision:block without a non-empty reason`
          : undefined;
      if (!d.continue) return stopAnswer(event, d, answer, context, problem === undefined);
      if (problem !== undefined) return fail(problem);
      answer.context = context;
      if (d.decision === 'block') return decided(answer, 'block', trimmedNonBlank(d.reason));
      return answer;
    }
    case 'SessionStart':
    case 'PreCompact':
    case 'PostCompact':
      if (!d.continue) return stopAnswer(event, d, answer, context, true);
      answer.context = context;
      return answer;
    default:
      // SubagentStart (`continue` has no effect), Interrupt (only systemMessage decodes).
      answer.context = context;
      return answer;
  }
}

/** PostToolUse's refusals while `continue` is true; undefined when the answer passes. */
function postToolUseProblem(d: Decoded): string | undefined {
  const E = 'PostToolUse';
  if (d.suppressOutput) return `${E} hook returned unsupported suppressOutput`;
  const mcp = d.specific?.updatedMCPToolOutput;
  if (mcp !== undefined && mcp !== null) return `${E} hook returned unsupported updatedMCPToolOutput`;
  if (d.decision === 'block' && trimmedNonBlank(d.reason) === null)
    return `${E} hook returned decision:block without a non-empty reason`;
  if (d.decision === undefined && d.reason !== undefined) return `${E} hook returned reason without decision`;
  return undefined;
}

/**
 * `continue: false`, read before the block rules (§5.5): a stop even when the rest would fail it,
 * but then its additionalContext is dropped.
 */
function stopAnswer(
  event: CodexEventData,
  d: Decoded,
  answer: CodexAnswer,
  context: string | null,
  restPasses: boolean,
): CodexAnswer {
  answer.context = restPasses ? context : null;
  answer.stopReason = d.stopReason ?? null;
  if (event.name === 'PostToolUse') {
    const text = trimmedNonBlank(d.reason) ?? trimmedNonBlank(d.stopReason) ?? 'PostToolUse hook stopped execution';
    answer.feedback = text;
    return decided(answer, 'stop', text);
  }
  return decided(answer, 'stop', trimmedNonBlank(d.stopReason));
}

/** The first line of a text, at most `max` characters (a terminal warning, not a record). */
function firstLine(text: string, max: number): string {
  const line = text.split('\n', 1)[0]!;
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
