// Which `if` rules hookctl evaluates (claude.md §4.2), for `claude_if_not_evaluated`. The rule's
// shape is if-eval.ts's parseRule, the same one fire reads.
import type { ParsedRule } from './if-eval.js';
import { pathPatternProblem } from './path-rule.js';

const FILE_TOOLS = new Set(['Edit', 'Write', 'Read', 'NotebookEdit']);

/** A bare tool name, `Bash(...)`, and the file tools' globs not written from `/`; the rest fails open. */
export function isEvaluatedIfRule(rule: ParsedRule): boolean {
  if (rule.pattern === undefined) return true;
  if (rule.tool === 'Bash') return true;
  if (FILE_TOOLS.has(rule.tool)) return !rule.pattern.trim().startsWith('/');
  return false;
}

/**
 * Why an evaluated rule's pattern cannot compile (`Edit(*.[z-a])`), for `claude_invalid_if_pattern`;
 * undefined when it compiles. Bash patterns always do (`*` is their only wildcard).
 */
export function ifRuleProblem(rule: ParsedRule): string | undefined {
  if (rule.pattern === undefined || !FILE_TOOLS.has(rule.tool) || !isEvaluatedIfRule(rule)) return undefined;
  return pathPatternProblem(rule.pattern);
}
