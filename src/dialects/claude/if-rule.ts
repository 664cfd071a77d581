// Which `if` rules hookctl evaluates (claude.md §4.2), for `claude_if_not_evaluated`. The rule's
// shape is if-eval.ts's parseRule, the same one fire reads.
import type { ParsedRule } from './if-eval.js';

const FILE_TOOLS = new Set(['Edit', 'Write', 'Read', 'NotebookEdit']);

/** A bare tool name, `Bash(...)`, and the file tools' globs not written from `/`; the rest fails open. */
export function isEvaluatedIfRule(rule: ParsedRule): boolean {
  if (rule.pattern === undefined) return true;
  if (rule.tool === 'Bash') return true;
  if (FILE_TOOLS.has(rule.tool)) return !rule.pattern.trim().startsWith('/');
  return false;
}
