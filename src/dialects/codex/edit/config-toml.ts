// The codex.md §7 edits of the `[hooks]` of a config.toml, as pure functions over its text, on the
// engine's table editor (src/edit/toml-tables.ts): a new group is appended as a `[[hooks.<E>]]`
// table with its `[[hooks.<E>.hooks]]` after the last table of E (or at the end of the file), a
// new handler of an existing group after that group's last table, an update rewrites only the
// changed key lines, a delete removes exactly the lines of the removed tables; comments, blank
// lines, key order and every other table stay byte for byte.
//
// Only the array-of-tables form is edited. An event written as an inline array
// (`[hooks]` + `PreToolUse = [...]`) is refused with a clear message rather than rewritten.
import { parse as parseToml } from 'smol-toml';
import type { TomlValue } from '../../../edit/toml-format.js';
import {
  formatTable,
  insertBlock,
  keyPaths,
  removeTableKey,
  removeTables,
  scanTomlTables,
  setTableKey,
  TomlTableEditError,
  type TomlLayout,
} from '../../../edit/toml-tables.js';
import {
  CodexEditError,
  HANDLER_KEY_ORDER,
  changedHandler,
  isPlainObject,
  sameMatcher,
  type CodexAddress,
  type CodexEditOutcome,
  type CodexHandlerChanges,
} from './model.js';

interface TomlGroup {
  /** Table indexes (into layout.tables) of the group: its header, sub-tables and handlers' tables. */
  tables: number[];
  header: number;
  /** Each handler's tables: its `[[hooks.E.hooks]]` header and the sub-tables below it. */
  handlers: number[][];
}

const startsWith = (path: readonly string[], prefix: readonly string[]) =>
  prefix.length <= path.length && prefix.every((s, i) => s === path[i]);

/** The groups of one event as written in array-of-tables form, in order. */
function groupsOf(layout: TomlLayout, event: string): TomlGroup[] {
  const base = ['hooks', event];
  const groups: TomlGroup[] = [];
  layout.tables.forEach((t, index) => {
    if (!startsWith(t.keys, base)) return;
    if (t.keys.length === 2) {
      if (!t.array) throw inlineForm(event);
      groups.push({ tables: [index], header: index, handlers: [] });
      return;
    }
    const group = groups.at(-1);
    if (group === undefined) throw inlineForm(event);
    group.tables.push(index);
    if (t.keys.length === 3 && t.keys[2] === 'hooks') {
      if (!t.array) throw inlineForm(event);
      group.handlers.push([index]);
    } else if (t.keys[2] === 'hooks') {
      const handler = group.handlers.at(-1);
      if (handler === undefined) throw inlineForm(event);
      handler.push(index);
    }
  });
  // A statement that writes into hooks.E outside those tables (`[hooks]` + `E = [...]`,
  // `hooks.E = [...]`): hookctl does not rewrite that form.
  const own = new Set(groups.flatMap((g) => g.tables.map((i) => layout.tables[i]!.headerIndex)));
  let table = -1;
  for (const { path, itemIndex } of keyPaths(layout)) {
    while (table + 1 < layout.tables.length && layout.tables[table + 1]!.headerIndex < itemIndex) table++;
    if (startsWith(path, base) && !(table >= 0 && own.has(layout.tables[table]!.headerIndex))) throw inlineForm(event);
  }
  return groups;
}

const inlineForm = (event: string) =>
  new CodexEditError(
    `hooks.${event} is not written as [[hooks.${event}]] tables with [[hooks.${event}.hooks]]; hookctl edits only that form`,
  );

function scan(text: string): TomlLayout {
  const layout = scanTomlTables(text);
  if (layout.unscanned) throw new CodexEditError('a line of config.toml could not be read as TOML');
  return layout;
}

function values(text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    throw new CodexEditError(`config.toml does not parse: ${(err as Error).message}`);
  }
}

function groupValues(text: string, event: string): Record<string, unknown>[] {
  const hooks = values(text).hooks;
  const groups = isPlainObject(hooks) ? hooks[event] : undefined;
  return Array.isArray(groups) ? groups.map((g) => (isPlainObject(g) ? g : {})) : [];
}

/** The handler table at an address, as values, or undefined. */
export function tomlHandlerAt(text: string, a: CodexAddress): Record<string, unknown> | undefined {
  const group = groupValues(text, a.event)[a.group];
  const h = Array.isArray(group?.hooks) ? (group.hooks as unknown[])[a.handler] : undefined;
  return isPlainObject(h) ? h : undefined;
}

const ordered = (handler: Record<string, unknown>): [string, TomlValue][] => {
  const rank = (k: string) => {
    const i = (HANDLER_KEY_ORDER as readonly string[]).indexOf(k);
    return i === -1 ? HANDLER_KEY_ORDER.length : i;
  };
  return Object.keys(handler)
    .sort((x, y) => rank(x) - rank(y))
    .map((k) => [k, handler[k] as TomlValue]);
};

function handlerBlock(event: string, handler: Record<string, unknown>, eol: string): string {
  return formatTable(['hooks', event, 'hooks'], true, ordered(handler), eol);
}

const guard = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TomlTableEditError) throw new CodexEditError(err.message);
    throw err;
  }
};

/** Adds a handler to event `event`; `matcher` undefined: a group without one. */
export function tomlCreateHandler(
  text: string,
  event: string,
  matcher: string | undefined,
  handler: Record<string, unknown>,
): CodexEditOutcome {
  return guard(() => {
    const layout = scan(text);
    const groups = groupsOf(layout, event);
    const written = groupValues(text, event);
    const gi = groups.findIndex((_, i) => sameMatcher(written[i] ?? {}, matcher));
    if (gi !== -1) {
      const group = groups[gi]!;
      const last = Math.max(...group.tables);
      // A blank line before the new handler when the group's last handler has one before it.
      const lastHandler = group.handlers.at(-1)?.[0];
      const before = lastHandler === undefined ? undefined : layout.items[layout.tables[lastHandler]!.headerIndex - 1];
      const separate = before?.kind === 'blank';
      return {
        text: insertBlock(text, last, handlerBlock(event, handler, layout.eol), { separate }),
        address: { event, group: gi, handler: group.handlers.length },
      };
    }
    const head = formatTable(['hooks', event], true, matcher === undefined ? [] : [['matcher', matcher]], layout.eol);
    const block = head + handlerBlock(event, handler, layout.eol);
    const after = groups.length === 0 ? undefined : Math.max(...groups.flatMap((g) => g.tables));
    return { text: insertBlock(text, after, block), address: { event, group: groups.length, handler: 0 } };
  });
}

const notFound = () => new CodexEditError('no handler at that place', 'hook_not_found');

/** Consecutive runs of table indexes, last run first (so earlier indexes stay valid). */
function runsFromLast(tables: readonly number[]): [number, number][] {
  const sorted = [...tables].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const t of sorted) {
    const run = runs.at(-1);
    if (run && run[1] === t) run[1] = t + 1;
    else runs.push([t, t + 1]);
  }
  return runs.reverse();
}

/** Removes a handler's tables, or its whole group when it is the group's only handler. */
export function tomlDeleteHandler(text: string, a: CodexAddress): CodexEditOutcome {
  return guard(() => {
    const group = groupsOf(scan(text), a.event)[a.group];
    const handler = group?.handlers[a.handler];
    if (group === undefined || handler === undefined) throw notFound();
    let out = text;
    for (const [from, to] of runsFromLast(group.handlers.length > 1 ? handler : group.tables)) {
      out = removeTables(out, from, to);
    }
    return { text: out, address: a };
  });
}

/**
 * Rewrites the changed key lines of a handler. A changed matcher moves it as create places it;
 * a handler alone in the last group of its event, with no other group of the new matcher, keeps
 * its place and only the group's `matcher` line changes (the same result).
 */
export function tomlUpdateHandler(text: string, a: CodexAddress, c: CodexHandlerChanges): CodexEditOutcome {
  return guard(() => {
    const groups = groupsOf(scan(text), a.event);
    const group = groups[a.group];
    const handlerTables = group?.handlers[a.handler];
    const handler = tomlHandlerAt(text, a);
    if (group === undefined || handlerTables === undefined || handler === undefined) throw notFound();
    const written = groupValues(text, a.event);
    let out = text;
    if (c.matcher !== undefined && !sameMatcher(written[a.group] ?? {}, c.matcher ?? undefined)) {
      const target = c.matcher ?? undefined;
      const inPlace =
        group.handlers.length === 1 && a.group === groups.length - 1 && !written.some((g) => sameMatcher(g, target));
      if (!inPlace) {
        const removed = tomlDeleteHandler(text, a);
        return tomlCreateHandler(removed.text, a.event, target, changedHandler(handler, c));
      }
      out =
        target === undefined
          ? removeTableKey(out, group.header, 'matcher')
          : setTableKey(out, group.header, 'matcher', target, ['matcher']);
    }
    const at = handlerTables[0]!;
    for (const [key, value] of Object.entries(c.set)) {
      out = setTableKey(out, at, key, value as TomlValue, HANDLER_KEY_ORDER);
    }
    for (const key of c.unset) out = removeTableKey(out, at, key);
    return { text: out, address: a };
  });
}
