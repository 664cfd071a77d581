// `Bash(pattern)` rules (claude.md §4.2): the command is parsed as shell by tree-sitter's Bash
// grammar (web-tree-sitter + tree-sitter-bash, WebAssembly; docs/DESIGN.md "Shell parser"), split
// into subcommands, and the pattern is tried on each. The parser is loaded on the first Bash rule
// evaluated, never at start-up: a dispatch without one does not pay for it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Node as SyntaxNode, Parser as TreeSitterParser } from 'web-tree-sitter';

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

/** Splits a command line; undefined when it does not parse (the rule then fails open). */
export async function splitShellCommand(command: string): Promise<ShellSplit | undefined> {
  let parser: TreeSitterParser;
  try {
    parser = await loadParser();
  } catch {
    parserPromise = undefined;
    return undefined; // no parser: as good as unparsable
  }
  const tree = parser.parse(command);
  if (tree === null) return undefined;
  try {
    if (tree.rootNode.hasError) return undefined;
    const split: ShellSplit = { subcommands: [], hasExpansion: false };
    collect(tree.rootNode, command, split);
    return split;
  } finally {
    tree.delete();
  }
}

function collect(node: SyntaxNode, source: string, out: ShellSplit): void {
  if (EXPANSIONS.has(node.type)) out.hasExpansion = true;
  if (SIMPLE_COMMANDS.has(node.type)) {
    const text = commandText(node, source);
    if (text !== '') out.subcommands.push(text);
  }
  // Commands inside $(), backticks and compound commands are subcommands too.
  for (const child of node.namedChildren) if (child !== null) collect(child, source, out);
}

/** A simple command's text from its first word that is not a `NAME=value` assignment. */
function commandText(node: SyntaxNode, source: string): string {
  if (node.type !== 'command') return node.text.trim();
  const first = node.namedChildren.find((c) => c !== null && c.type !== 'variable_assignment');
  if (first === undefined || first === null) return '';
  return source.slice(first.startIndex, node.endIndex).trim();
}

/**
 * `*` is any run of characters (none included); a trailing ` *` also matches the bare word, so
 * `git *` matches `git`. The pattern must match a whole subcommand.
 */
export function bashPatternRegex(pattern: string): RegExp {
  const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[\\s\\S]*');
  if (pattern.endsWith(' *')) return new RegExp(`^${escape(pattern.slice(0, -2))}(?: [\\s\\S]*)?$`);
  return new RegExp(`^${escape(pattern)}$`);
}

/** Whether the pattern says more than the command word (`git push *` does, `git *` does not). */
export function namesMoreThanCommandWord(pattern: string): boolean {
  const stem = pattern.replace(/ ?\*$/, '').trim();
  return /\s/.test(stem);
}

export interface BashRuleVerdict {
  verdict: 'match' | 'no_match' | 'fail_open';
  why: string;
}

export async function evaluateBashPattern(pattern: string, command: unknown): Promise<BashRuleVerdict> {
  if (typeof command !== 'string') return { verdict: 'fail_open', why: 'tool_input.command is not a string' };
  const split = await splitShellCommand(command);
  if (split === undefined) return { verdict: 'fail_open', why: 'the command could not be parsed as shell' };
  const re = bashPatternRegex(pattern);
  const hit = split.subcommands.find((s) => re.test(s));
  if (hit !== undefined) return { verdict: 'match', why: `subcommand ${JSON.stringify(hit)} matches` };
  if (split.hasExpansion && namesMoreThanCommandWord(pattern)) {
    return { verdict: 'fail_open', why: 'the command uses $(), backticks or $VAR, which hookctl cannot expand' };
  }
  return { verdict: 'no_match', why: `no subcommand matches ${JSON.stringify(pattern)}` };
}
