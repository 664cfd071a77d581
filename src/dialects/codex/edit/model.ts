// What the codex text editors (hooks-json.ts, config-toml.ts) share: a handler's place, the
// changes of an update, and the outcome of one edit. Pure types and tiny helpers.

/** A handler's place in one file, 0-based as Codex counts (codex.md §2.5). */
export interface CodexAddress {
  event: string;
  group: number;
  handler: number;
}

export interface CodexHandlerChanges {
  /** Fields to set: command, timeout, async, statusMessage, additionalContextLimit. */
  set: Record<string, unknown>;
  /** Fields to remove. */
  unset: string[];
  /** A new matcher (null: none); undefined: unchanged. */
  matcher?: string | null;
}

/** The text after an edit and where the edited handler now is (delete: where it was). */
export interface CodexEditOutcome {
  text: string;
  address: CodexAddress;
}

/** An edit the text cannot take (no such handler, a form hookctl does not edit). */
export class CodexEditError extends Error {
  constructor(
    message: string,
    readonly refusal: 'hook_not_found' | 'hook_edit_failed' = 'hook_edit_failed',
  ) {
    super(message);
    this.name = 'CodexEditError';
  }
}

/** Handler keys in the order new text writes them. */
export const HANDLER_KEY_ORDER = [
  'type',
  'command',
  'commandWindows',
  'command_windows',
  'server',
  'tool',
  'input',
  'timeout',
  'async',
  'statusMessage',
  'additionalContextLimit',
] as const;

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The handler after the changes, keys in HANDLER_KEY_ORDER after those it had. */
export function changedHandler(handler: Record<string, unknown>, c: CodexHandlerChanges): Record<string, unknown> {
  const out: Record<string, unknown> = { ...handler, ...c.set };
  for (const key of c.unset) delete out[key];
  return out;
}

/** Whether a group's matcher is exactly `matcher` (absent is not `""`, codex.md §7). */
export function sameMatcher(group: Record<string, unknown>, matcher: string | undefined): boolean {
  return matcher === undefined ? !('matcher' in group) : group.matcher === matcher;
}
