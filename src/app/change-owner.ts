// Which dialect's own edit code runs a change (claude.md §7): `--dialect`, else the dialect that
// recognises the change (claude: a §2.2 name, a claude-catalog event, `--all-hooks`). undefined:
// the shared config.toml edits (compozy, and cosh's on/off states) run it. Light: no edit code.
import { dialectNamed, dialects } from '../dialects/registry.js';
import type { Dialect } from '../dialects/types.js';
import type { Locations } from '../paths.js';
import { unknownEventError } from './event-names.js';

export function changeOwner(req: {
  action: string;
  name?: string;
  event?: string;
  dialect?: string;
  allHooks?: boolean;
}): Dialect | undefined {
  // A create without a NAME whose event no dialect knows is a typo (`PreToolUSe`): say so, rather
  // than ask for the NAME only a compozy hook needs. (With a NAME it is a compozy declaration that
  // does not validate, SPEC §6.1; with --dialect, that dialect's own check names the event.)
  if (req.action === 'create' && req.name === undefined && req.event !== undefined && req.dialect === undefined) {
    if (!dialects().some((d) => d.hasEvent(req.event!))) throw unknownEventError(req.event);
  }
  if (req.dialect !== undefined) {
    const named = dialectNamed(req.dialect);
    return named?.changeHooks ? named : undefined;
  }
  return claimants(req)[0];
}

type OwnerQuery = Parameters<typeof changeOwner>[0];

/** The dialects that recognise the change as theirs, in registry order. */
function claimants(req: OwnerQuery): Dialect[] {
  return dialects().filter((d) => d.changeHooks && d.ownsChange?.(req));
}

/**
 * changeOwner, and when a NAME fits the name form of more than one dialect (`plugin/…` origins),
 * the one whose sources declare that name (else the first, whose own "not found" then answers).
 */
export async function resolveChangeOwner(
  req: OwnerQuery,
  loc: Locations,
  env: NodeJS.ProcessEnv,
): Promise<Dialect | undefined> {
  if (req.dialect !== undefined || req.name === undefined) return changeOwner(req);
  changeOwner(req);
  const claim = claimants(req);
  if (claim.length <= 1) return claim[0];
  const name = req.name.trim();
  for (const d of claim) {
    const catalog = await d.loadCatalog(loc, env);
    if (catalog.declarations.some((x) => x.name === name)) return d;
  }
  return claim[0];
}
