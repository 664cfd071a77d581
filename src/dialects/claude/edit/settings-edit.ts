// The §7 edits of a settings file as pure functions over its text: create a handler (joining the
// first group of its event whose matcher is exactly the one asked for, or a new group at the end),
// update one (moving it when its matcher changes), delete one (then an emptied group, then an
// emptied event), and turn disableAllHooks on or off.
import {
  appendItem,
  detectStyle,
  removeItem,
  removeProperty,
  setProperty,
  JsonEditError,
} from '../../../edit/json-edit.js';
import { handlerIdentity, isPlainObject } from '../sources/handlers.js';

/** A handler's place: `hooks[event][group - 1].hooks[index - 1]`, 1-based as in names. */
export interface HandlerAddress {
  event: string;
  group: number;
  index: number;
}

export interface ParsedHookName extends HandlerAddress {
  origin: string;
}

/** `<origin>:<Event>:<group>.<handler>`; origins may hold `:` (plugin skills), so read from the right. */
export function parseHookName(name: string): ParsedHookName | undefined {
  const m = /^(.+):([^:]+):([1-9][0-9]*)\.([1-9][0-9]*)$/.exec(name.trim());
  if (!m) return undefined;
  return { origin: m[1]!, event: m[2]!, group: Number(m[3]), index: Number(m[4]) };
}

/** Why an edit cannot be made (edit.ts turns it into the command's refusal). */
export type EditRefusal = {
  ok: false;
  refusal: 'hook_already_exists' | 'hook_not_found';
  message: string;
};
export type EditDone = { ok: true; text: string; address: HandlerAddress };

const EMPTY = '{}\n';

function parse(text: string): Record<string, unknown> {
  const data: unknown = JSON.parse(text.replace(/^\uFEFF/, '') || '{}');
  if (!isPlainObject(data)) throw new JsonEditError('the settings file is not a JSON object');
  return data;
}

function groupsOf(data: Record<string, unknown>, event: string): unknown[] | undefined {
  const hooks = data.hooks;
  if (!isPlainObject(hooks)) return undefined;
  return Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : undefined;
}

function handlerAt(data: Record<string, unknown>, a: HandlerAddress): Record<string, unknown> | undefined {
  const group = groupsOf(data, a.event)?.[a.group - 1];
  if (!isPlainObject(group) || !Array.isArray(group.hooks)) return undefined;
  const h = group.hooks[a.index - 1];
  return isPlainObject(h) ? h : undefined;
}

/** A BOM is kept out of the JSON edits and put back after. */
function withoutBom(text: string, fn: (body: string) => string): string {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  return bom + fn(text.slice(bom.length));
}

/** Adds a handler (claude.md §7 `hooks create`). `matcher` undefined: a group without one. */
export function createHandler(
  text: string,
  event: string,
  matcher: string | undefined,
  handler: Record<string, unknown>,
): EditDone | EditRefusal {
  let address: HandlerAddress | undefined;
  let refusal: EditRefusal | undefined;
  const out = withoutBom(text, (body) => {
    if (body.trim() === '') body = EMPTY;
    const style = detectStyle(body);
    const data = parse(body);
    const newGroup = { ...(matcher !== undefined ? { matcher } : {}), hooks: [handler] };
    if (!isPlainObject(data.hooks)) {
      address = { event, group: 1, index: 1 };
      return setProperty(body, [], 'hooks', { [event]: [newGroup] }, style);
    }
    const groups = groupsOf(data, event);
    if (groups === undefined) {
      address = { event, group: 1, index: 1 };
      return setProperty(body, ['hooks'], event, [newGroup], style);
    }
    const gi = groups.findIndex(
      (g) =>
        isPlainObject(g) &&
        Array.isArray(g.hooks) &&
        (matcher === undefined ? !('matcher' in g) : g.matcher === matcher),
    );
    if (gi === -1) {
      address = { event, group: groups.length + 1, index: 1 };
      return appendItem(body, ['hooks', event], newGroup, style);
    }
    const group = groups[gi] as { hooks: unknown[] };
    const same = handlerIdentity({ event, matcher: matcher ?? null, handler });
    const dup = group.hooks.findIndex(
      (h) => isPlainObject(h) && handlerIdentity({ event, matcher: matcher ?? null, handler: h }) === same,
    );
    if (dup !== -1) {
      refusal = { ok: false, refusal: 'hook_already_exists', message: `${gi + 1}.${dup + 1}` };
      return body;
    }
    address = { event, group: gi + 1, index: group.hooks.length + 1 };
    return appendItem(body, ['hooks', event, gi, 'hooks'], handler, style);
  });
  return refusal ?? { ok: true, text: out, address: address! };
}

/** Removes a handler, then its group when emptied, then its event when emptied. */
export function deleteHandler(text: string, a: HandlerAddress): EditDone | EditRefusal {
  const data = parse(text.replace(/^\uFEFF/, ''));
  if (handlerAt(data, a) === undefined) return { ok: false, refusal: 'hook_not_found', message: '' };
  const out = withoutBom(text, (body) => {
    const groups = groupsOf(data, a.event)!;
    const group = groups[a.group - 1] as { hooks: unknown[] };
    if (group.hooks.length > 1) return removeItem(body, ['hooks', a.event, a.group - 1, 'hooks'], a.index - 1);
    if (groups.length > 1) return removeItem(body, ['hooks', a.event], a.group - 1);
    return removeProperty(body, ['hooks'], a.event);
  });
  return { ok: true, text: out, address: a };
}

export interface HandlerChanges {
  /** Fields to set (a header is `headers.<H>`). */
  set: Record<string, unknown>;
  /** Keys to remove: `if`, `timeout`, …, `headers.<H>`. */
  unset: string[];
  /** A new matcher (null: none); undefined: unchanged. */
  matcher?: string | null;
}

/** The handler after the changes, as an object (headers merged per key). */
export function changedHandler(handler: Record<string, unknown>, c: HandlerChanges): Record<string, unknown> {
  const out: Record<string, unknown> = { ...handler };
  for (const [key, value] of Object.entries(c.set)) {
    if (key.startsWith('headers.')) {
      out.headers = { ...(isPlainObject(out.headers) ? out.headers : {}), [key.slice(8)]: value };
    } else out[key] = value;
  }
  for (const key of c.unset) {
    if (key.startsWith('headers.')) {
      if (!isPlainObject(out.headers)) continue;
      const headers = { ...out.headers };
      delete headers[key.slice(8)];
      if (Object.keys(headers).length === 0) delete out.headers;
      else out.headers = headers;
    } else delete out[key];
  }
  return out;
}

/**
 * Changes a handler in place, field by field, so the rest of its text stays; a changed matcher
 * moves it out of its group and places it as `create` would.
 */
export function updateHandler(text: string, a: HandlerAddress, c: HandlerChanges): EditDone | EditRefusal {
  const data = parse(text.replace(/^\uFEFF/, ''));
  const handler = handlerAt(data, a);
  if (handler === undefined) return { ok: false, refusal: 'hook_not_found', message: '' };
  const group = groupsOf(data, a.event)![a.group - 1] as Record<string, unknown>;
  const current = typeof group.matcher === 'string' ? group.matcher : null;
  if (c.matcher !== undefined && c.matcher !== current) {
    const moved = changedHandler(handler, c);
    const removed = deleteHandler(text, a);
    if (!removed.ok) return removed;
    return createHandler(removed.text, a.event, c.matcher ?? undefined, moved);
  }
  const path = ['hooks', a.event, a.group - 1, 'hooks', a.index - 1];
  const out = withoutBom(text, (body) => {
    const style = detectStyle(body);
    for (const [key, value] of Object.entries(c.set)) {
      if (key.startsWith('headers.')) {
        const current = handlerAt(parse(body), a)!;
        body = isPlainObject(current.headers)
          ? setProperty(body, [...path, 'headers'], key.slice(8), value, style)
          : setProperty(body, path, 'headers', { [key.slice(8)]: value }, style);
      } else body = setProperty(body, path, key, value, style);
    }
    for (const key of c.unset) {
      if (key.startsWith('headers.')) {
        const current = handlerAt(parse(body), a)!;
        if (!isPlainObject(current.headers)) continue;
        const rest = Object.keys(current.headers).filter((k) => k !== key.slice(8));
        body =
          rest.length === 0
            ? removeProperty(body, path, 'headers')
            : removeProperty(body, [...path, 'headers'], key.slice(8));
      } else body = removeProperty(body, path, key);
    }
    return body;
  });
  return { ok: true, text: out, address: a };
}

/** `disable --all-hooks` sets `"disableAllHooks": true`; `enable --all-hooks` removes the key. */
export function setDisableAllHooks(text: string, on: boolean): string {
  return withoutBom(text, (body) => {
    if (body.trim() === '') {
      if (!on) return body;
      body = EMPTY;
    }
    parse(body);
    return on
      ? setProperty(body, [], 'disableAllHooks', true, detectStyle(body))
      : removeProperty(body, [], 'disableAllHooks');
  });
}
