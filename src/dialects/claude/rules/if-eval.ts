// The `if` permission rule of one handler (claude.md §4.2): `Tool` or `Tool(pattern)`, checked
// against the payload. Bash rules go through the shell parser (loaded on demand), file rules
// through gitignore-style globs; any other rule is not evaluated and the hook runs.
import { evaluatePathPattern } from './path-rule.js';

export type IfVerdictKind = 'match' | 'no_match' | 'fail_open';

export interface IfVerdict {
  rule: string;
  verdict: IfVerdictKind;
  why: string;
}

export interface ParsedRule {
  tool: string;
  /** The text inside the parentheses; undefined for a bare `Tool`. */
  pattern?: string;
}

/** `Tool` or `Tool(pattern)`; undefined when the text is not one permission rule. */
export function parseRule(text: string): ParsedRule | undefined {
  const m = /^([A-Za-z][A-Za-z0-9_.:-]*)(?:\(([\s\S]*)\))?$/.exec(text.trim());
  if (m === null) return undefined;
  if (m[2] !== undefined && !balanced(m[2])) return undefined; // `Bash(a), Edit(b)` is two rules
  return m[2] === undefined ? { tool: m[1]! } : { tool: m[1]!, pattern: m[2] };
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** `mcp__<server>` as the Tool covers every tool of that server. */
function toolMatches(ruleTool: string, toolName: unknown): boolean {
  if (typeof toolName !== 'string') return false;
  if (ruleTool === toolName) return true;
  const server = ruleTool.startsWith('mcp__') && ruleTool.length > 5 && !ruleTool.slice(5).includes('__');
  return server && toolName.startsWith(`${ruleTool}__`);
}

const FILE_FIELDS: Readonly<Record<string, string>> = {
  Edit: 'file_path',
  Write: 'file_path',
  Read: 'file_path',
  NotebookEdit: 'notebook_path',
};

export interface IfContext {
  payload: Record<string, unknown>;
  /** The base of relative file patterns: the payload's cwd (already filled). */
  cwd: string;
  home: string | undefined;
}

/**
 * The rule's verdict on the payload. It never throws: a rule whose evaluation fails however it
 * fails lets its hook run (fail-open, claude.md §4.2), and the sibling hooks run as usual.
 */
export async function evaluateIfRule(rule: string, ctx: IfContext): Promise<IfVerdict> {
  try {
    return await evaluate(rule, ctx);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { rule, verdict: 'fail_open', why: `the rule could not be evaluated: ${message}` };
  }
}

async function evaluate(rule: string, ctx: IfContext): Promise<IfVerdict> {
  const parsed = parseRule(rule);
  if (parsed === undefined) {
    return { rule, verdict: 'fail_open', why: 'not one permission rule such as "Bash(git *)"' };
  }
  const toolName = ctx.payload.tool_name;
  if (!toolMatches(parsed.tool, toolName)) {
    return {
      rule,
      verdict: 'no_match',
      why: `tool_name is ${JSON.stringify(toolName ?? null)}, not ${JSON.stringify(parsed.tool)}`,
    };
  }
  if (parsed.pattern === undefined) return { rule, verdict: 'match', why: `tool_name is ${JSON.stringify(toolName)}` };
  const input = ctx.payload.tool_input;
  const fields =
    typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (parsed.tool === 'Bash') {
    // Only here is the parser loaded: a dispatch without a Bash rule never pays for it.
    const { evaluateBashPattern } = await import('./bash-rule.js');
    return { rule, ...(await evaluateBashPattern(parsed.pattern, fields.command)) };
  }
  const field = FILE_FIELDS[parsed.tool];
  if (field !== undefined) return { rule, ...evaluatePathPattern(parsed.pattern, fields[field], ctx.cwd, ctx.home) };
  return { rule, verdict: 'fail_open', why: `hookctl does not evaluate ${JSON.stringify(rule)}` };
}
