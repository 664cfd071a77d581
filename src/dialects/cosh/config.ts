// One cosh config.toml layer (SPEC §4.2): `[hooks] enabled` and `[[hooks.<Event>]]` arrays.
// Other top-level tables belong to the cosh runtime and are not ours to judge. Merging the
// layers is load.ts's job; this file reads one.
import { parse, TomlError } from 'smol-toml';
import { locateTomlKeys, type TomlLocations } from '../../declarations/toml-locate.js';
import type { Diagnostic } from '../../declarations/diagnostics.js';
import {
  diagnostic,
  isCoshEventName,
  typeName,
  unknownEventMessage,
  validateCoshHook,
  type At,
  type CoshField,
  type CoshHookSpec,
  type RawCoshHook,
} from './hook.js';
import { readSourceFile } from '../../declarations/source-file.js';

const SOURCE = 'cosh_config' as const;
const CONFIG_HOOK_KEYS: ReadonlySet<string> = new Set(['name', 'command', 'timeout', 'matcher', 'env']);

export interface CoshConfigLayer {
  file: string;
  /** Set when this layer's `[hooks] enabled` is a boolean. */
  enabled?: { value: boolean; line: number };
  /**
   * Every cosh event this layer declares (even with an empty or broken list: declaring an
   * event is what replaces the lower layers' list), with its valid hooks in file order.
   */
  events: Map<string, CoshHookSpec[]>;
  diagnostics: Diagnostic[];
}

/** Reads one layer; undefined when the file does not exist. */
export async function readCoshConfig(file: string): Promise<CoshConfigLayer | undefined> {
  const read = await readSourceFile(file, SOURCE);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'bad') return { file, events: new Map(), diagnostics: [read.diagnostic] };
  return parseCoshConfig(file, read.text);
}

export function parseCoshConfig(file: string, text: string): CoshConfigLayer {
  const layer: CoshConfigLayer = { file, events: new Map(), diagnostics: [] };
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    layer.diagnostics.push(tomlErrorDiagnostic(file, error));
    return layer;
  }
  const hooks = data['hooks'];
  if (hooks === undefined) return layer;
  // smol-toml gives values, not positions. Hook header lines (every declaration needs one) come
  // from a quick scan; the full key locator is built only when it is needed: a diagnostic, or a
  // hook written in a form the quick scan does not follow.
  let where: TomlLocations | undefined;
  const locate = (path: (string | number)[]) => (where ??= locateTomlKeys(text)).get(path);
  const headers = hookHeaders(text);
  const at = (path: (string | number)[]): At => {
    const pos = locate(path);
    const a: At = { file, line: pos?.line ?? locate(['hooks'])?.line ?? 1, source: SOURCE };
    if (pos?.column !== undefined) a.column = pos.column;
    return a;
  };
  if (!isTable(hooks)) {
    layer.diagnostics.push(
      diagnostic('error', 'invalid_section', `hooks must be a table, got ${typeName(hooks)}`, at(['hooks'])),
    );
    return layer;
  }

  for (const [key, value] of Object.entries(hooks)) {
    if (key === 'enabled') {
      if (typeof value === 'boolean') layer.enabled = { value, line: at(['hooks', 'enabled']).line };
      else {
        layer.diagnostics.push(
          diagnostic(
            'error',
            'invalid_field_type',
            `hooks.enabled must be a boolean, got ${typeName(value)}`,
            at(['hooks', 'enabled']),
          ),
        );
      }
      continue;
    }
    if (!isCoshEventName(key)) {
      if (Array.isArray(value) || isTable(value)) {
        const hint = key === 'declarations' ? ' ([[hooks.declarations]] is CompozyOS syntax, not cosh)' : '';
        layer.diagnostics.push(
          diagnostic('error', 'invalid_event', `${unknownEventMessage(key)}${hint}`, at(['hooks', key])),
        );
      } else {
        layer.diagnostics.push(
          diagnostic('warning', 'unknown_key', `unknown key "hooks.${key}" is ignored`, at(['hooks', key])),
        );
      }
      continue;
    }
    const specs: CoshHookSpec[] = [];
    layer.events.set(key, specs);
    if (!Array.isArray(value)) {
      const message = `hooks.${key} must be an array of tables ([[hooks.${key}]]), got ${typeName(value)}`;
      layer.diagnostics.push(diagnostic('error', 'invalid_section', message, at(['hooks', key])));
      continue;
    }
    const quick = headers.get(key);
    const located = quick !== undefined && quick.length === value.length ? quick : undefined;
    value.forEach((item, i) => {
      const path = `hooks.${key}[${i}]`;
      const hookAt: At = located ? { file, source: SOURCE, ...located[i]! } : at(['hooks', key, i]);
      if (!isTable(item)) {
        layer.diagnostics.push(
          diagnostic('error', 'invalid_section', `${path} must be a table, got ${typeName(item)}`, hookAt),
        );
        return;
      }
      const fields = new Map<string, CoshField>();
      for (const [k, v] of Object.entries(item)) fields.set(k, { value: v });
      const raw: RawCoshHook = {
        source: SOURCE,
        file,
        event: key,
        path,
        line: hookAt.line,
        column: hookAt.column,
        fields,
        keyPosition: (k) => locate(['hooks', key, i, k]),
        knownKeys: CONFIG_HOOK_KEYS,
      };
      const check = validateCoshHook(raw);
      layer.diagnostics.push(...check.diagnostics);
      if (check.spec) specs.push(check.spec);
    });
  }
  return layer;
}

function tomlErrorDiagnostic(file: string, error: unknown): Diagnostic {
  if (error instanceof TomlError) {
    const first = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    return {
      severity: 'error',
      code: 'toml_parse_error',
      message: `invalid TOML: ${first}`,
      file,
      line: error.line,
      column: error.column,
      source: SOURCE,
    };
  }
  // Anything else the parser throws (e.g. a stack overflow on absurd nesting) is still data.
  const why = error instanceof Error ? error.message : String(error);
  return {
    severity: 'error',
    code: 'toml_parse_error',
    message: `invalid TOML: ${why}`,
    file,
    line: 1,
    column: 1,
    source: SOURCE,
  };
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

const HOOK_HEADER = /^[ \t]*\[\[[ \t]*hooks[ \t]*\.[ \t]*(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*\]\]/;

/**
 * `[[hooks.<Event>]]` header positions per event, in order, by one pass over the lines. Its
 * result is used only where its count matches the parsed list, so a header-like line inside a
 * multi-line string (which would add one) sends that event to the full locator instead.
 */
function hookHeaders(text: string): Map<string, { line: number; column: number }[]> {
  const out = new Map<string, { line: number; column: number }[]>();
  let line = 1;
  for (let start = 0; start <= text.length; line++) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    // Cheap test first: only lines whose first non-blank characters are `[[`.
    let i = start;
    while (i < stop && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
    if (text.startsWith('[[', i)) {
      const m = HOOK_HEADER.exec(text.slice(start, stop));
      if (m) {
        const event = m[1] ?? m[2] ?? m[3]!;
        const list = out.get(event) ?? [];
        list.push({ line, column: i - start + 1 });
        out.set(event, list);
      }
    }
    if (end === -1) break;
    start = end + 1;
  }
  return out;
}
