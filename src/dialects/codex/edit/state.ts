// `[hooks.state."<key>"]` of the user config.toml (codex.md §2.6, §7), as pure functions over its
// text: set or remove `trusted_hash` and `enabled`. A missing table is added after the last
// `[hooks.state.…]` table, else at the end of the file (an empty text becomes the table alone);
// a table left with no key and no comment is removed. Every other byte stays.
import type { TomlValue } from '../../../edit/toml-format.js';
import {
  formatTable,
  insertBlock,
  keyPaths,
  removeTableKey,
  removeTables,
  scanTomlTables,
  setTableKey,
  tableIsEmpty,
  TomlTableEditError,
  type TomlLayout,
} from '../../../edit/toml-tables.js';
import { CodexEditError } from './model.js';

export type StateField = 'trusted_hash' | 'enabled';

const FIELD_ORDER: readonly StateField[] = ['trusted_hash', 'enabled'];

const startsWith = (path: readonly string[], prefix: readonly string[]) =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i]);

/** The index of the `[hooks.state."<key>"]` table, after checking no other form writes that key. */
function stateTable(layout: TomlLayout, key: string): number | undefined {
  const path = ['hooks', 'state', key];
  const index = layout.tables.findIndex((t) => !t.array && t.keys.length === 3 && startsWith(t.keys, path));
  const own = index === -1 ? undefined : layout.tables[index]!;
  for (const kv of keyPaths(layout)) {
    const inOwn = own !== undefined && kv.itemIndex > own.headerIndex && kv.itemIndex < own.endIndex;
    // `hooks = {…}`, `[hooks]` + `state = {…}`, `[hooks.state]` + `"<key>" = {…}`, dotted keys.
    const clash = startsWith(path, kv.path) || startsWith(kv.path, path);
    if (clash && !inOwn) {
      throw new CodexEditError(
        `hooks.state."${key}" is written as an inline table or dotted keys; hookctl edits only [hooks.state."<key>"] tables`,
      );
    }
  }
  if (layout.tables.some((t) => t.array && startsWith(path, t.keys))) {
    throw new CodexEditError('hooks.state is not a table in this config.toml');
  }
  return index === -1 ? undefined : index;
}

function scan(text: string): TomlLayout {
  const layout = scanTomlTables(text);
  if (layout.unscanned) throw new CodexEditError('a line of config.toml could not be read as TOML');
  return layout;
}

const guard = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TomlTableEditError) throw new CodexEditError(err.message);
    throw err;
  }
};

/** Sets `field = value` under `[hooks.state."<key>"]`, creating the table when missing. */
export function setStateField(text: string, key: string, field: StateField, value: TomlValue): string {
  return guard(() => {
    const layout = scan(text);
    const at = stateTable(layout, key);
    if (at !== undefined) return setTableKey(text, at, field, value, FIELD_ORDER);
    const block = formatTable(['hooks', 'state', key], false, [[field, value]], layout.eol);
    const lastState = layout.tables.findLastIndex((t) => t.keys.length >= 2 && startsWith(t.keys, ['hooks', 'state']));
    return insertBlock(text, lastState === -1 ? undefined : lastState, block);
  });
}

/** Removes `field` from `[hooks.state."<key>"]`; the table goes too when nothing is left in it. */
export function removeStateField(text: string, key: string, field: StateField): string {
  return guard(() => {
    const at = stateTable(scan(text), key);
    if (at === undefined) return text;
    const out = removeTableKey(text, at, field);
    if (out === text) return text;
    return tableIsEmpty(scan(out), at) ? removeTables(out, at, at + 1) : out;
  });
}

/** The value of `field` as written in `[hooks.state."<key>"]`, from parsed values. */
export function stateFieldOf(values: Record<string, unknown>, key: string, field: StateField): unknown {
  const hooks = values.hooks as Record<string, unknown> | undefined;
  const state = hooks?.state as Record<string, Record<string, unknown> | undefined> | undefined;
  return state?.[key]?.[field];
}
