// Helpers the compozy loaders share: TOML with positions, within-file duplicate names, and a
// bounded-concurrency map for reading many files at once.
import { parse as parseToml, TomlError } from 'smol-toml';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import { tomlMessage } from '../../../declarations/frontmatter.js';
import type { Source } from '../../../declarations/model.js';
import { rawHookName, type RawHook } from '../rules/declaration.js';
import { makeDiagnostic, type Locator, type PathSeg, type Position } from '../../../declarations/source-file.js';
import { locateTomlKeys } from '../../../declarations/toml-locate.js';

export type Table = Record<string, unknown>;

export function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export type ParsedDocument = { ok: true; data: Table; locate: Locator } | { ok: false; diagnostic: Diagnostic };

/** Parses a TOML file; a syntax error becomes `toml_parse_error` with smol-toml's line and column. */
export function parseTomlDocument(text: string, file: string, source: Source): ParsedDocument {
  try {
    const data = parseToml(text, { integersAsBigInt: 'asNeeded' }) as Table;
    return { ok: true, data, locate: locateTomlKeys(text).locate };
  } catch (err) {
    const at: Position = err instanceof TomlError ? { line: err.line, column: err.column } : { line: 1 };
    return {
      ok: false,
      diagnostic: makeDiagnostic('error', 'toml_parse_error', `invalid TOML: ${tomlMessage(err)}`, file, at, {
        source,
      }),
    };
  }
}

/** The position of `path`, else of its nearest located parent, else line 1. */
export function positionOf(locate: Locator, path: readonly PathSeg[], fallback: Position = { line: 1 }): Position {
  for (let k = path.length; k > 0; k--) {
    const at = locate(path.slice(0, k));
    if (at) return at;
  }
  return fallback;
}

/**
 * Within one file a repeated name replaces the earlier declaration (SPEC §2.1): the earlier one
 * is marked overridden and the later one carries a `duplicate_hook_name` warning.
 */
export function markDuplicateNames(raws: readonly RawHook[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, RawHook>();
  for (const raw of raws) {
    const name = rawHookName(raw.value);
    if (name === undefined) continue;
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      earlier.status = {
        status: 'overridden',
        why: `replaced by the declaration of the same name at line ${raw.position.line}`,
      };
      diagnostics.push(
        makeDiagnostic(
          'warning',
          'duplicate_hook_name',
          `${raw.messagePrefix ?? ''}hooks: duplicate hook name ${JSON.stringify(name)}: the declaration at line ${raw.position.line} replaces the one at line ${earlier.position.line}`,
          raw.file,
          raw.position,
          { source: raw.source, hook: name },
        ),
      );
    }
    seen.set(name, raw);
  }
  return diagnostics;
}

/** Maps over items with at most `limit` promises in flight; results keep the input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
