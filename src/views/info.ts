// What `hooks info NAME` shows (SPEC §6): every declaration with that name, in full.
import type { OrderedDeclaration } from '../declarations/model.js';
import { toListEntry, type ListEntry } from './list.js';

export interface InfoDeclaration extends ListEntry {
  command: string;
  args: string[];
  /** Names only: values may be sensitive and are not needed to find a hook. */
  env: string[];
  secret_env: string[];
  cwd: string;
  extension: string | null;
  description: string | null;
}

export function toInfoDeclaration(d: OrderedDeclaration, cwd?: string): InfoDeclaration {
  return {
    ...toListEntry(d, true, cwd),
    command: d.command,
    args: d.args,
    env: Object.keys(d.env),
    secret_env: Object.keys(d.secret_env),
    cwd: d.cwd,
    extension: d.extension ?? null,
    description: d.description ?? null,
  };
}
