// The codex.md §7 edits of a hooks.json, as pure functions over its text, on the engine's JSON
// editor (src/edit/json-edit.ts): each rewrites only the array or object it changes and keeps
// the file's indentation and line endings; an empty text becomes a new file with 2-space
// indentation. Create joins the first group of the event whose matcher is exactly the one asked
// for, else adds a group at the end of the event; delete removes the handler, then an emptied
// group, then an emptied event; update changes fields in place, and a new matcher moves the
// handler as create places it.
import {
  appendItem,
  detectStyle,
  removeItem,
  removeProperty,
  setProperty,
  JsonEditError,
} from '../../../edit/json-edit.js';
import {
  CodexEditError,
  changedHandler,
  isPlainObject,
  sameMatcher,
  type CodexAddress,
  type CodexEditOutcome,
  type CodexHandlerChanges,
} from './model.js';

const EMPTY = '{}\n';

function parse(text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text || '{}');
  } catch (err) {
    throw new CodexEditError(`the file is not valid JSON: ${(err as Error).message}`);
  }
  if (!isPlainObject(data)) throw new CodexEditError('hooks.json is not a JSON object');
  return data;
}

function groupsOf(data: Record<string, unknown>, event: string): unknown[] | undefined {
  const hooks = data.hooks;
  if (!isPlainObject(hooks)) return undefined;
  return Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : undefined;
}

function groupAt(data: Record<string, unknown>, a: { event: string; group: number }) {
  const group = groupsOf(data, a.event)?.[a.group];
  return isPlainObject(group) && Array.isArray(group.hooks)
    ? (group as { hooks: unknown[] } & typeof group)
    : undefined;
}

/** The handler object at an address, or undefined. */
export function jsonHandlerAt(text: string, a: CodexAddress): Record<string, unknown> | undefined {
  const h = groupAt(parse(strip(text)), a)?.hooks[a.handler];
  return isPlainObject(h) ? h : undefined;
}

const strip = (text: string) => text.replace(/^\uFEFF/, '');

/** A BOM is kept out of the JSON edits and put back after; JsonEditError becomes CodexEditError. */
function edit(text: string, fn: (body: string) => string): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  try {
    return bom + fn(text.slice(bom.length));
  } catch (err) {
    if (err instanceof JsonEditError) throw new CodexEditError(err.message);
    throw err;
  }
}

/** Adds a handler to event `event`; `matcher` undefined: a group without one. */
export function jsonCreateHandler(
  text: string,
  event: string,
  matcher: string | undefined,
  handler: Record<string, unknown>,
): CodexEditOutcome {
  let address: CodexAddress | undefined;
  const out = edit(text, (body) => {
    if (body.trim() === '') body = EMPTY;
    const style = detectStyle(body);
    const data = parse(body);
    const newGroup = { ...(matcher !== undefined ? { matcher } : {}), hooks: [handler] };
    if (!isPlainObject(data.hooks)) {
      address = { event, group: 0, handler: 0 };
      return setProperty(body, [], 'hooks', { [event]: [newGroup] }, style);
    }
    const groups = groupsOf(data, event);
    if (groups === undefined) {
      address = { event, group: 0, handler: 0 };
      return setProperty(body, ['hooks'], event, [newGroup], style);
    }
    const gi = groups.findIndex((g) => isPlainObject(g) && Array.isArray(g.hooks) && sameMatcher(g, matcher));
    if (gi === -1) {
      address = { event, group: groups.length, handler: 0 };
      return appendItem(body, ['hooks', event], newGroup, style);
    }
    const group = groups[gi] as { hooks: unknown[] };
    address = { event, group: gi, handler: group.hooks.length };
    return appendItem(body, ['hooks', event, gi, 'hooks'], handler, style);
  });
  return { text: out, address: address! };
}

const notFound = () => new CodexEditError('no handler at that place', 'hook_not_found');

/** Removes a handler, then its group when emptied, then its event when emptied. */
export function jsonDeleteHandler(text: string, a: CodexAddress): CodexEditOutcome {
  const data = parse(strip(text));
  const group = groupAt(data, a);
  if (group === undefined || !isPlainObject(group.hooks[a.handler])) throw notFound();
  const groups = groupsOf(data, a.event)!;
  const out = edit(text, (body) => {
    if (group.hooks.length > 1) return removeItem(body, ['hooks', a.event, a.group, 'hooks'], a.handler);
    if (groups.length > 1) return removeItem(body, ['hooks', a.event], a.group);
    return removeProperty(body, ['hooks'], a.event);
  });
  return { text: out, address: a };
}

/**
 * Changes a handler field by field, so the rest of its text stays. A changed matcher moves it
 * as create places it; a handler alone in the last group of its event, with no other group of
 * the new matcher, keeps its place and only the group's matcher changes (the same result).
 */
export function jsonUpdateHandler(text: string, a: CodexAddress, c: CodexHandlerChanges): CodexEditOutcome {
  const data = parse(strip(text));
  const group = groupAt(data, a);
  const handler = group?.hooks[a.handler];
  if (group === undefined || !isPlainObject(handler)) throw notFound();
  let out = text;
  if (c.matcher !== undefined && !sameMatcher(group, c.matcher ?? undefined)) {
    const groups = groupsOf(data, a.event)!;
    const target = c.matcher ?? undefined;
    const inPlace =
      group.hooks.length === 1 &&
      a.group === groups.length - 1 &&
      !groups.some((g) => isPlainObject(g) && Array.isArray(g.hooks) && sameMatcher(g, target));
    if (!inPlace) {
      const removed = jsonDeleteHandler(text, a);
      return jsonCreateHandler(removed.text, a.event, target, changedHandler(handler, c));
    }
    out = edit(out, (body) =>
      target === undefined
        ? removeProperty(body, ['hooks', a.event, a.group], 'matcher')
        : setProperty(body, ['hooks', a.event, a.group], 'matcher', target, detectStyle(body)),
    );
  }
  const path = ['hooks', a.event, a.group, 'hooks', a.handler];
  out = edit(out, (body) => {
    const style = detectStyle(body);
    for (const [key, value] of Object.entries(c.set)) body = setProperty(body, path, key, value, style);
    for (const key of c.unset) body = removeProperty(body, path, key);
    return body;
  });
  return { text: out, address: a };
}
