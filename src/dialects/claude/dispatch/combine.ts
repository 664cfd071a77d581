// Combining the answers of one dispatch into the verdict (claude.md §5.6): `continue: false`
// first, then the event's decision kind, reasons, context, the other outputs (last in
// declaration order, with a warning when hooks disagree), the final payload and the exit code.
import type { HookAnswer } from './answer.js';
import type { ClaudeEventData } from '../catalog-types.js';

export type ClaudeVerdict =
  'pass' | 'allow' | 'ask' | 'defer' | 'deny' | 'block' | 'stop' | 'accept' | 'decline' | 'cancel';

/** One run's answer, in declaration order. */
export interface CombineEntry {
  name: string;
  async: boolean;
  answer: HookAnswer;
}

export interface Combined {
  verdict: ClaudeVerdict;
  reason: string | null;
  stop_reason: string | null;
  system_message: string | null;
  additional_context: string | null;
  next_turn_context: string | null;
  outputs: Record<string, unknown>;
  payload: Record<string, unknown>;
  warnings: string[];
}

/** Strongest first. */
const PRECEDENCE: Readonly<Record<string, readonly ClaudeVerdict[]>> = {
  permission: ['deny', 'defer', 'ask', 'allow'],
  permission_request: ['deny', 'allow'],
  model_switch: ['deny', 'ask', 'allow'],
  block: ['block'],
  worktree_path: ['block'],
  elicitation: ['cancel', 'decline', 'accept'],
  none: [],
};

function joined(parts: string[]): string | null {
  return parts.length > 0 ? parts.join('\n') : null;
}

/** JSON with sorted keys, to tell whether two hooks gave the same value. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function combineAnswers(
  event: ClaudeEventData,
  entries: CombineEntry[],
  payload: Record<string, unknown>,
): Combined {
  const warnings: string[] = [];
  // Only sync hooks that answered decide; a failed hook never changes the verdict (fail-open).
  const deciding = entries.filter((e) => !e.async && e.answer.outcome !== 'failed');
  let verdict: ClaudeVerdict = 'pass';
  const stopping = deciding.filter((e) => e.answer.stop);
  if (stopping.length > 0) {
    verdict = 'stop';
  } else {
    const decided = new Set<string | null>(deciding.map((e) => e.answer.decision));
    verdict = PRECEDENCE[event.decision_kind]?.find((v) => decided.has(v)) ?? 'pass';
    if (event.name === 'ConfigChange' && payload.source === 'policy_settings' && verdict !== 'pass') {
      warnings.push('ConfigChange of policy_settings cannot be blocked; the verdict is pass');
      verdict = 'pass';
    }
  }
  const reasons = deciding
    .filter((e) => (verdict === 'stop' ? e.answer.stop : e.answer.decision === verdict))
    .map((e) => e.answer.reason)
    .filter((r): r is string => r !== null && r !== '');
  const stopReason = stopping.map((e) => e.answer.stopReason).find((r) => r !== null) ?? null;

  const context = deciding.flatMap((e) => e.answer.context);
  const nextTurn = entries.flatMap((e) => e.answer.nextTurn);
  const messages = deciding.map((e) => e.answer.systemMessage).filter((m): m is string => m !== null);

  const outputs: Record<string, unknown> = {};
  const givers = new Map<string, { name: string; value: string }[]>();
  for (const e of deciding) {
    for (const [field, value] of Object.entries(e.answer.fields)) {
      outputs[field] = value;
      const list = givers.get(field) ?? [];
      list.push({ name: e.name, value: canonical(value) });
      givers.set(field, list);
    }
  }
  for (const [field, list] of givers) {
    if (list.length > 1 && new Set(list.map((g) => g.value)).size > 1) {
      warnings.push(
        `${field} from ${list.length} hooks (${list.map((g) => g.name).join(', ')}); hookctl used the last in declaration order (${list[list.length - 1]!.name}); Claude Code uses whichever finishes last`,
      );
    }
  }

  return {
    verdict,
    reason: joined(reasons),
    stop_reason: stopReason,
    system_message: joined(messages),
    additional_context: joined(context),
    next_turn_context: joined(nextTurn),
    outputs,
    payload: finalPayload(event, verdict, outputs, payload),
    warnings,
  };
}

/** The payload as the tool would now see it (§5.6 step 6). */
function finalPayload(
  event: ClaudeEventData,
  verdict: ClaudeVerdict,
  outputs: Record<string, unknown>,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  const updated = outputs.updatedInput;
  if (updated !== undefined) {
    if (event.name === 'PreToolUse' && ['allow', 'ask', 'defer', 'pass'].includes(verdict)) {
      return { ...payload, tool_input: updated };
    }
    if (event.name === 'PermissionRequest' && verdict === 'allow') return { ...payload, tool_input: updated };
  }
  if (event.name === 'PostToolUse') {
    const isMcp = typeof payload.tool_name === 'string' && payload.tool_name.startsWith('mcp__');
    const replacement = isMcp
      ? (outputs.updatedMCPToolOutput ?? outputs.updatedToolOutput)
      : (outputs.updatedToolOutput ?? outputs.updatedMCPToolOutput);
    if (replacement !== undefined) return { ...payload, tool_response: replacement };
  }
  return payload;
}
