// Which dialect's own edit code runs a change (claude.md §7): `--dialect`, else the dialect that
// recognises the change (claude: a §2.2 name, a claude-catalog event, `--all-hooks`). undefined:
// the shared config.toml edits (compozy, and cosh's on/off states) run it. Light: no edit code.
import { dialectNamed, dialects } from '../dialects/registry.js';
import type { Dialect } from '../dialects/types.js';

export function changeOwner(req: {
  action: string;
  name?: string;
  event?: string;
  dialect?: string;
  allHooks?: boolean;
}): Dialect | undefined {
  if (req.dialect !== undefined) {
    const named = dialectNamed(req.dialect);
    return named?.changeHooks ? named : undefined;
  }
  return dialects().find((d) => d.changeHooks && d.ownsChange?.(req));
}
