// The second pass of Claude Code's front matter reader (claude.md §2.1.1): a top-level line
// `key: value` whose plain value holds a YAML-special character is rewritten as `key: "value"`,
// so `argument-hint: [issue] [--plan-doc path]` becomes a string; tabs that start a line become
// two spaces each. No other line changes.
import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

/** `key:`, white space and a value, from the first column; the key of ASCII letters, `_` and `-`. */
const TOP_LEVEL_PAIR = /^([A-Za-z_-]+):[ \t]+(.*?)[ \t]*$/;
/** The characters that make a plain value need quoting, or a `:` followed by a space. */
const SPECIAL = /[{}[\]*&#!|>%@`]|: /;

export interface Requoted {
  text: string;
  /** The rewritten lines: their key and 0-based index in the block. */
  rewritten: { key: string; index: number }[];
}

export function requoteFrontMatter(block: string): Requoted {
  const rewritten: Requoted['rewritten'] = [];
  const lines = block.split('\n').map((raw, index) => {
    const cr = raw.endsWith('\r') ? '\r' : '';
    const line = (cr ? raw.slice(0, -1) : raw).replace(/^\t+/, (tabs) => '  '.repeat(tabs.length));
    const m = TOP_LEVEL_PAIR.exec(line);
    if (m === null || m[2] === '' || !needsQuotes(m[2]!)) return line + cr;
    rewritten.push({ key: m[1]!, index });
    return `${m[1]}: "${m[2]!.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"${cr}`;
  });
  return { text: lines.join('\n'), rewritten };
}

function needsQuotes(value: string): boolean {
  const quoted = value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]);
  if (quoted) return false;
  if (value.startsWith('[') && value.endsWith(']') && parsesAsList(value)) return false;
  return SPECIAL.test(value);
}

let yamlModule: typeof YamlModule | undefined;

function parsesAsList(value: string): boolean {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof YamlModule;
  try {
    return Array.isArray(yamlModule.parse(value));
  } catch {
    return false;
  }
}
