// `Bash(pattern)` rules (claude.md §4.2): the command is parsed as shell by tree-sitter's Bash
// grammar (web-tree-sitter + tree-sitter-bash, WebAssembly; docs/DESIGN.md "Shell parser"), split
// into subcommands, and the pattern is tried on each. The parser is loaded on the first Bash rule
// evaluated, never at start-up: a dispatch without one does not pay for it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';
import { compileBashGlob, globMatches, withinMatchBound, type CompiledGlob } from './glob-match.js';

export interface ShellSplit {
  /** Every simple command, leading `NAME=value` assignments and outer white space removed. */
  subcommands: string[];
  /** The command uses `$()`, backticks, `<()`, `$VAR` or `${VAR}` somewhere. */
  hasExpansion: boolean;
}

let parserPromise: Promise<TreeSitterParser> | undefined;

function loadParser(): Promise<TreeSitterParser> {
  parserPromise ??= (async () => {
    const require = createRequire(import.meta.url);
    // V8's optimising compiler would recompile the grammar's 1.3 MB of WebAssembly in the
    // background, and the process waits for that at exit: 1.7 s added to every fire that reads a
    // Bash rule. The baseline compiler alone parses a command line in about a millisecond.
    (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
    const { Parser, Language } = require('web-tree-sitter') as typeof import('web-tree-sitter');
    await Parser.init();
    const bash = await Language.load(grammarPath(require));
    const parser = new Parser();
    parser.setLanguage(bash);
    return parser;
  })();
  return parserPromise;
}

/** The file name of the grammar, in tree-sitter-bash and in dist/. */
const BASH_WASM = 'tree-sitter-bash.wasm';

/**
 * The grammar's WebAssembly. The build copies it from tree-sitter-bash (a devDependency) into
 * dist/, the folder above dist/chunks/ where this module is bundled (scripts/build.mjs), so an install has no tree-sitter-bash, its C
 * sources, native prebuilds or install script (docs/DESIGN.md "Shell parser"). Run from source,
 * as the unit tests do, there is no copy beside this file, and the package's own file is read.
 */
function grammarPath(require: NodeJS.Require): string {
  const copied = fileURLToPath(new URL(`../${BASH_WASM}`, import.meta.url));
  return existsSync(copied) ? copied : require.resolve(`tree-sitter-bash/${BASH_WASM}`);
}

/** Nodes whose text is one subcommand as a whole. */
const SIMPLE_COMMANDS = new Set(['command', 'declaration_command', 'unset_command', 'test_command']);
const EXPANSIONS = new Set(['command_substitution', 'process_substitution', 'simple_expansion', 'expansion']);

/**
 * The bounds of a Bash rule's work (docs/RELIABILITY.md "if rules"); past one, the rule fails
 * open and the hook runs, as for a command that does not parse (claude.md §4.2).
 */
export const BASH_RULE_BOUNDS = {
  /** The command line, in UTF-16 code units: a 100 KB line parses in ~0.2 s (liftoff). */
  commandChars: 100_000,
  /** All subcommands' text together: nested `$()` repeats the inner text in every outer one. */
  subcommandChars: 1_000_000,
};

/** Splits a command line; undefined when it does not parse or is past a bound (it then fails open). */
export async function splitShellCommand(command: string): Promise<ShellSplit | undefined> {
  const split = await splitWithinBounds(command);
  return typeof split === 'string' ? undefined : split;
}

/** The split, or why there is none (the reason a rule fails open). */
async function splitWithinBounds(command: string): Promise<ShellSplit | string> {
  const unparsable = 'the command could not be parsed as shell';
  if (command.length > BASH_RULE_BOUNDS.commandChars)
    return `the command is longer than ${BASH_RULE_BOUNDS.commandChars.toLocaleString('en-US')} characters`;
  let parser: TreeSitterParser;
  try {
    parser = await loadParser();
  } catch {
    parserPromise = undefined;
    return unparsable; // no parser: as good as unparsable
  }
  const tree = parser.parse(command);
  if (tree === null) return unparsable;
  try {
    if (tree.rootNode.hasError) return unparsable;
    const split: ShellSplit = { subcommands: [], hasExpansion: false };
    if (!collect(tree.rootNode, command, split))
      return `its subcommands are longer than ${BASH_RULE_BOUNDS.subcommandChars.toLocaleString('en-US')} characters together (nested $() or backticks)`;
    return split;
  } finally {
    tree.delete();
  }
}

/**
 * Every simple command of the tree, in source order; false once their text passes
 * BASH_RULE_BOUNDS.subcommandChars. A loop over a stack of nodes, not a recursion: a 40 KB `&&`
 * chain is a tree 8,000 levels deep, which overflowed the call stack.
 */
function collect(root: SyntaxNode, source: string, out: ShellSplit): boolean {
  let chars = 0;
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (EXPANSIONS.has(node.type)) out.hasExpansion = true;
    if (SIMPLE_COMMANDS.has(node.type)) {
      chars += node.endIndex - node.startIndex;
      if (chars > BASH_RULE_BOUNDS.subcommandChars) return false;
      const text = collapseBlanks(commandText(node, source));
      if (text !== '') out.subcommands.push(text);
    }
    // Commands inside $(), backticks and compound commands are subcommands too.
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && child !== undefined) stack.push(child);
    }
  }
  return true;
}

/** A simple command's text from its first word that is not a `NAME=value` assignment. */
function commandText(node: SyntaxNode, source: string): string {
  if (node.type !== 'command') return node.text.trim();
  const first = node.namedChildren.find((c) => c !== null && c.type !== 'variable_assignment');
  if (first === undefined || first === null) return '';
  return source.slice(first.startIndex, node.endIndex).trim();
}

/**
 * Runs of spaces and tabs between words, outside quotes, as one space (claude.md §4.2, 2.1.98):
 * `git   commit -m x` is `git commit -m x`. Text in '…' or "…", and an escaped blank, is kept.
 */
export function collapseBlanks(subcommand: string): string {
  let out = '';
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < subcommand.length; i++) {
    const c = subcommand[i]!;
    if (quote === undefined && (c === ' ' || c === '\t')) {
      while (subcommand[i + 1] === ' ' || subcommand[i + 1] === '\t') i++;
      out += ' ';
      continue;
    }
    out += c;
    if (c === '\\' && quote !== "'" && i + 1 < subcommand.length) out += subcommand[++i];
    else if (quote === undefined && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = undefined;
  }
  return out;
}

/** A Bash pattern compiled once for every subcommand of a command line. */
export interface BashPattern {
  test(subcommand: string): boolean;
  /** The pattern compiled (what matching costs per character: its steps). */
  glob: CompiledGlob;
}

/**
 * `*` is any run of characters (none included); a trailing ` *` also matches the bare word, so
 * `git *` matches `git`. The pattern must match a whole subcommand. Matched in linear time
 * (glob-match.ts), never as a regular expression that could backtrack. A `:*` at the very end is
 * the legacy spelling of ` *` (`Bash(git commit:*)`); anywhere else it is two literal characters.
 */
export function bashPattern(written: string): BashPattern {
  const pattern = legacySuffix(written);
  const whole = compileBashGlob(pattern);
  const bare = pattern.endsWith(' *') ? compileBashGlob(pattern.slice(0, -2)) : undefined;
  return {
    test: (s) => globMatches(whole, s) || (bare !== undefined && globMatches(bare, s)),
    glob: whole,
  };
}

/** `git commit:*` as `git commit *` (claude.md §4.2). */
function legacySuffix(pattern: string): string {
  return pattern.endsWith(':*') ? `${pattern.slice(0, -2)} *` : pattern;
}

/** Whether the pattern says more than the command word (`git push *` does, `git *` does not). */
export function namesMoreThanCommandWord(pattern: string): boolean {
  const stem = legacySuffix(pattern).replace(/ ?\*$/, '').trim();
  return /\s/.test(stem);
}

export interface BashRuleVerdict {
  verdict: 'match' | 'no_match' | 'fail_open';
  why: string;
}

export async function evaluateBashPattern(pattern: string, command: unknown): Promise<BashRuleVerdict> {
  if (typeof command !== 'string') return { verdict: 'fail_open', why: 'tool_input.command is not a string' };
  const split = await splitWithinBounds(command);
  if (typeof split === 'string') return { verdict: 'fail_open', why: split };
  const matcher = bashPattern(pattern);
  const chars = split.subcommands.reduce((sum, s) => sum + s.length, 0);
  if (!withinMatchBound(matcher.glob, chars)) {
    return { verdict: 'fail_open', why: 'the pattern and the command are too long to match within bounds' };
  }
  const hit = split.subcommands.find((s) => matcher.test(s));
  if (hit !== undefined) return { verdict: 'match', why: `subcommand ${JSON.stringify(hit)} matches` };
  if (split.hasExpansion && namesMoreThanCommandWord(pattern)) {
    return { verdict: 'fail_open', why: 'the command uses $(), backticks or $VAR, which hookctl cannot expand' };
  }
  return { verdict: 'no_match', why: `no subcommand matches ${JSON.stringify(pattern)}` };
}
