import type { OrderedDeclaration } from './model.js';

/** `fire --dry-run`: `active`, or why a declaration never runs, whatever its matcher says. */
export function planStatus(d: OrderedDeclaration): { status: string; why?: string } {
  const status = d.status === 'active' && !d.enabled ? 'disabled' : d.status;
  return d.why !== undefined ? { status, why: d.why } : { status };
}
