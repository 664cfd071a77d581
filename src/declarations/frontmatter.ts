// Front matter of AGENT.md and SKILL.md: split it from the body and parse it with positions.
//
// YAML between `---` lines is the format of both files. A TOML front matter is accepted too
// (SPEC §2.4, AGENT.md): between `+++` lines always; between `---` lines when the text is not a
// YAML map but parses as TOML (TOML's `key = "value"` lines read as one plain YAML scalar, so a
// `---` block is tried as YAML first and as TOML only when YAML gives no map).
import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';
import type { Document, Node } from 'yaml';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { Diagnostic } from './diagnostics.js';
import type { Source } from './model.js';
import { makeDiagnostic, noLocator, type Locator, type PathSeg, type Position } from './source-file.js';
import { locateTomlKeys } from './toml-locate.js';
import { readFastYaml } from './yaml-fast.js';

// The `yaml` package costs a noticeable part of a command's start-up to load, and plain front
// matters never need it (compozy/yaml-fast.ts reads them), so it is loaded on first use only.
// The require too: createRequire(import.meta.url) makes and parses a file URL, at every start.
let yamlModule: typeof YamlModule | undefined;

function yaml(): typeof YamlModule {
  return (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof YamlModule);
}

export interface FrontMatterBlock {
  delimiter: '---' | '+++';
  /** The text between the delimiter lines. */
  text: string;
  /** 1-based line of the first line of `text` in the file. */
  firstLine: number;
}

export type FrontMatterSplit =
  { kind: 'none' } | { kind: 'unterminated'; delimiter: '---' | '+++' } | { kind: 'block'; block: FrontMatterBlock };

/** `frontmatter_unterminated` at line 1: a front matter opened with `---`/`+++` and never closed. */
export function unterminatedFrontMatter(delimiter: string, file: string, source: Source): Diagnostic {
  return makeDiagnostic(
    'error',
    'frontmatter_unterminated',
    `front matter opened with "${delimiter}" is never closed`,
    file,
    { line: 1 },
    { source },
  );
}

/** Finds the front matter: the file's first line is `---` (or `+++`) and a later line closes it. */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const firstEnd = lineEnd(text, 0);
  const opener = text.slice(0, firstEnd).trimEnd();
  if (opener !== '---' && opener !== '+++') return { kind: 'none' };
  const delimiter = opener;
  let start = nextLine(text, firstEnd);
  const contentStart = start;
  while (start < text.length) {
    const end = lineEnd(text, start);
    const line = text.slice(start, end).trimEnd();
    if (line === delimiter || (delimiter === '---' && line === '...')) {
      return { kind: 'block', block: { delimiter, text: text.slice(contentStart, start), firstLine: 2 } };
    }
    start = nextLine(text, end);
  }
  return { kind: 'unterminated', delimiter };
}

/**
 * What CompozyOS refuses before it reads an AGENT.md or SKILL.md front matter: a file that does
 * not open with one, and a UTF-8 byte-order mark before it. Undefined when neither applies.
 */
export function frontMatterRefusal(
  split: FrontMatterSplit,
  bom: boolean,
  kind: 'AGENT.md' | 'SKILL.md',
  file: string,
  source: Source,
): Diagnostic | undefined {
  if (bom) {
    const message = `${kind} starts with a UTF-8 byte-order mark before its front matter: CompozyOS refuses the file; save it as UTF-8 without BOM`;
    return makeDiagnostic('error', 'frontmatter_bom', message, file, { line: 1, column: 1 }, { source });
  }
  if (split.kind === 'none') {
    const message = `${kind} has no front matter: CompozyOS refuses a file that does not open with a "---" line`;
    return makeDiagnostic('error', 'frontmatter_missing', message, file, { line: 1 }, { source });
  }
  return undefined;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}

function nextLine(text: string, end: number): number {
  return end < text.length ? end + 1 : text.length;
}

export interface ParsedFrontMatter {
  format: 'yaml' | 'toml';
  /** The top-level map; undefined when the front matter did not parse or is not a map. */
  data?: Record<string, unknown>;
  locate: Locator;
  diagnostics: Diagnostic[];
}

/**
 * Parses a front matter block; problems become diagnostics with the file's line numbers.
 * `yamlOnly`: a `---` block is YAML and nothing else (Claude Code reads no TOML), so one that is
 * not a YAML map is `frontmatter_not_a_map` even when it would parse as TOML (`[hooks]`).
 */
export function parseFrontMatter(
  block: FrontMatterBlock,
  file: string,
  source?: Source,
  opts: { yamlOnly?: boolean } = {},
): ParsedFrontMatter {
  if (block.delimiter === '+++') return parseTomlBlock(block, file, source);
  const yaml = parseYamlBlock(block, file, source);
  if (yaml.data !== undefined || block.text.trim() === '' || opts.yamlOnly) return yaml;
  const toml = parseTomlBlock(block, file, source);
  return toml.data !== undefined ? toml : yaml;
}

function parseYamlBlock(block: FrontMatterBlock, file: string, source?: Source): ParsedFrontMatter {
  // Plain front matters take the fast path; anything else (and every error) the full parser.
  const fast = readFastYaml(block.text, block.firstLine);
  if (fast !== undefined) return { format: 'yaml', data: fast.data, locate: fast.locate, diagnostics: [] };
  const { LineCounter, isMap, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(block.text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const toFile = (offset: number): Position => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + block.firstLine - 1, column: pos.col };
  };
  const diagnostics: Diagnostic[] = [];
  // One diagnostic per front matter: after its first error the parser has lost its way, and
  // reports every following line again (an unquoted `argument-hint: [issue] [--plan-doc path]`
  // gave one per line to the end of the block). The first error is the mistake.
  const first = doc.errors[0];
  if (first !== undefined) {
    diagnostics.push(
      makeDiagnostic(
        'error',
        'yaml_parse_error',
        `invalid YAML front matter: ${firstLine(first.message)}`,
        file,
        toFile(first.pos[0]),
        { source },
      ),
    );
  }
  const locate = yamlLocator(doc, toFile);
  if (diagnostics.length > 0) return { format: 'yaml', locate, diagnostics };
  if (doc.contents === null) return { format: 'yaml', data: {}, locate, diagnostics };
  if (!isMap(doc.contents)) {
    diagnostics.push(
      makeDiagnostic(
        'error',
        'frontmatter_not_a_map',
        'front matter is not a map of keys',
        file,
        toFile(doc.contents.range?.[0] ?? 0),
        {
          source,
        },
      ),
    );
    return { format: 'yaml', locate, diagnostics };
  }
  // A key that is a list or map (`? [a, b]`): JavaScript objects cannot hold it, and the yaml
  // package would stringify it with a warning on stderr. It is a diagnostic instead.
  const { isCollection, visit } = yaml();
  visit(doc, {
    Pair(_, pair) {
      if (!isCollection(pair.key)) return;
      if (diagnostics.length > 0) return visit.BREAK;
      const at = toFile(pair.key.range?.[0] ?? 0);
      diagnostics.push(
        makeDiagnostic(
          'error',
          'yaml_parse_error',
          'invalid YAML front matter: a key must be a plain value, not a list or map',
          file,
          at,
          { source },
        ),
      );
    },
  });
  if (diagnostics.length > 0) return { format: 'yaml', locate, diagnostics };
  try {
    const data = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
    return { format: 'yaml', data, locate, diagnostics };
  } catch (err) {
    diagnostics.push(
      makeDiagnostic(
        'error',
        'yaml_parse_error',
        `invalid YAML front matter: ${firstLine((err as Error).message)}`,
        file,
        {
          line: block.firstLine,
        },
        { source },
      ),
    );
    return { format: 'yaml', locate, diagnostics };
  }
}

function parseTomlBlock(block: FrontMatterBlock, file: string, source?: Source): ParsedFrontMatter {
  try {
    const data = parseToml(block.text, { integersAsBigInt: 'asNeeded' }) as Record<string, unknown>;
    return { format: 'toml', data, locate: locateTomlKeys(block.text, block.firstLine - 1).locate, diagnostics: [] };
  } catch (err) {
    const at: Position =
      err instanceof TomlError
        ? { line: err.line + block.firstLine - 1, column: err.column }
        : { line: block.firstLine };
    return {
      format: 'toml',
      locate: noLocator,
      diagnostics: [
        makeDiagnostic('error', 'toml_parse_error', `invalid TOML front matter: ${tomlMessage(err)}`, file, at, {
          source,
        }),
      ],
    };
  }
}

/** The first line of smol-toml's message, without its "Invalid TOML document: " prefix. */
export function tomlMessage(err: unknown): string {
  return firstLine((err as Error).message ?? String(err)).replace(/^Invalid TOML document:\s*/, '');
}

function firstLine(message: string): string {
  const nl = message.indexOf('\n');
  return (nl === -1 ? message : message.slice(0, nl)).trim();
}

/** A locator over a YAML document: a map key's position, or a list item's. */
export function yamlLocator(doc: Document, toFile: (offset: number) => Position): Locator {
  const { isMap, isScalar, isSeq } = yaml();
  return (path: readonly PathSeg[]) => {
    let node: unknown = doc.contents;
    let at: number | undefined;
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
        if (pair === undefined) return undefined;
        at = (pair.key as Node).range?.[0];
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as Node | undefined;
        if (item === undefined) return undefined;
        at = item.range?.[0];
        node = item;
      } else return undefined;
    }
    return at === undefined ? undefined : toFile(at);
  };
}
