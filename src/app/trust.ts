// `hooks trust NAME…` / `hooks trust --all`: which dialects record the approval (those with
// `trustHooks`, src/dialects/types.ts), and which names go to which. Dialect-neutral: `--dialect`,
// else each NAME goes to the dialect that recognises it (`ownsChange` with action `trust`).
import { dialectNamed, dialects } from '../dialects/registry.js';
import type { Dialect, DialectTrustResult } from '../dialects/types.js';
import { ExitCode, HookctlError, usageError } from '../errors.js';
import type { Locations } from '../paths.js';

export interface TrustRequest {
  names: string[];
  all: boolean;
  dialect?: string;
  dryRun: boolean;
  loc: Locations;
  env: NodeJS.ProcessEnv;
}

export async function trustHooks(req: TrustRequest): Promise<DialectTrustResult[]> {
  if (req.all && req.names.length > 0) throw usageError('give NAMEs or --all, not both');
  if (!req.all && req.names.length === 0) throw usageError('hooks trust needs a NAME (or --all)');
  let trusting: Dialect[];
  if (req.dialect !== undefined) {
    const one = dialectNamed(req.dialect);
    if (!one?.trustHooks) throw usageError(`${req.dialect} hooks need no trust: nothing to record`);
    trusting = [one];
  } else trusting = dialects().filter((d) => d.trustHooks);
  if (trusting.length === 0) throw usageError('no dialect records hook trust');

  const byDialect = new Map<Dialect, string[]>();
  for (const name of req.names) {
    const owner =
      trusting.length === 1 ? trusting[0]! : trusting.find((d) => d.ownsChange?.({ action: 'trust', name }));
    if (owner === undefined) {
      throw new HookctlError('hook_not_found', `hook ${JSON.stringify(name)} not found`, ExitCode.no);
    }
    byDialect.set(owner, [...(byDialect.get(owner) ?? []), name]);
  }
  const runs: [Dialect, string[]][] = req.all ? trusting.map((d) => [d, []]) : [...byDialect];
  const results: DialectTrustResult[] = [];
  for (const [d, names] of runs) {
    results.push(await d.trustHooks!({ names, all: req.all, dryRun: req.dryRun, loc: req.loc, env: req.env }));
  }
  return results;
}
