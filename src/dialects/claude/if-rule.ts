// The shape of a handler's `if` rule (claude.md §4.2): one permission rule, `Tool` or
// `Tool(pattern)`, with no `&&`, `||` or lists. Validation reads the shape; fire evaluates it.

export interface IfRule {
  tool: string;
  /** The text between the parentheses; null for a bare `Tool`. */
  pattern: string | null;
}

const RULE = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([\s\S]*)\))?$/;
/** `Bash(a) && Bash(b)`, `Bash(a) || Read(b)`, `Bash(a), Bash(b)`: more than one rule. */
const SEVERAL = /\)\s*(?:&&|\|\||,)\s*[A-Za-z][A-Za-z0-9_-]*(?:\(|$)/;

/** The rule's parts, or undefined when it is not one permission rule. */
export function parseIfRule(rule: string): IfRule | undefined {
  const text = rule.trim();
  if (SEVERAL.test(text)) return undefined;
  const m = RULE.exec(text);
  if (!m) return undefined;
  return { tool: m[1]!, pattern: m[2] ?? null };
}

const FILE_TOOLS = new Set(['Edit', 'Write', 'Read', 'NotebookEdit']);

/**
 * Whether hookctl evaluates the rule (claude.md §4.2): a bare tool name, `Bash(...)`, and the
 * file tools' globs not written from `/`. Everything else fails open at fire time.
 */
export function isEvaluatedIfRule(rule: IfRule): boolean {
  if (rule.pattern === null) return true;
  if (rule.tool === 'Bash') return true;
  if (FILE_TOOLS.has(rule.tool)) return !rule.pattern.trim().startsWith('/');
  return false;
}
