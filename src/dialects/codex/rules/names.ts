// Names (codex.md §2.4, [ours]), Codex's positional keys (§2.5) and list labels.
import type { CodexHandlerType } from '../model.js';

/** `<origin>:<Event>:<group>.<handler>`, 1-based. */
export function codexHookName(origin: string, event: string, groupIndex: number, handlerIndex: number): string {
  return `${origin}:${event}:${groupIndex + 1}.${handlerIndex + 1}`;
}

/** `<key source>:<event label>:<group>:<handler>`, 0-based. */
export function codexKey(keySource: string, eventLabel: string, groupIndex: number, handlerIndex: number): string {
  return `${keySource}:${eventLabel}:${groupIndex}:${handlerIndex}`;
}

export const LABEL_MAX = 80;

/** The command, or `server/tool`, at most 80 characters (an ellipsis marks a cut). */
export function codexLabel(type: CodexHandlerType, handler: Record<string, unknown>): string {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const text =
    type === 'mcp_tool'
      ? `${str(handler.server)}/${str(handler.tool)}`
      : type === 'command'
        ? str(handler.command)
        : str(handler.prompt) || type;
  const one = text.replace(/\s*\n\s*/g, ' ');
  const chars = [...one];
  return chars.length <= LABEL_MAX ? one : `${chars.slice(0, LABEL_MAX - 1).join('')}…`;
}

/** `hook "<n>"`-style quoting in messages. */
export const q = (s: string): string => JSON.stringify(s);

/** Folder names under plugins/data: every character outside [A-Za-z0-9_.-] becomes `-` ([ours]). */
export function dataDirName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '-');
}
