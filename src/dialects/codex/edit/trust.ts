// `hooks trust NAME…` / `hooks trust --all` (codex.md §7, [ours]): writes
// `trusted_hash = "<current hash>"` under `[hooks.state."<key>"]` of the user config.toml (created
// when missing), byte-preserving, for each named hook, in one write. Managed hooks are trusted by
// policy and refused (`codex_trust_managed`).
import { ExitCode, HookctlError, usageError } from '../../../errors.js';
import type { DialectTrustRequest, DialectTrustResult } from '../../types.js';
import type { CodexHandlerInfo } from '../model.js';
import { loadCodexSources } from '../sources/load.js';
import { checkStateWrite, findHook, isManagedSource, refuseUnparsedState, userConfigMeta } from './edit.js';
import { changeFile } from './io.js';
import { setStateField } from './state.js';

const q = (s: string): string => JSON.stringify(s);

export async function trustCodexHooks(req: DialectTrustRequest): Promise<DialectTrustResult> {
  const catalog = await loadCodexSources(req.loc, req.env);
  const names = [...new Set(req.names.map((n) => n.trim()))];
  if (names.some((n) => n === '')) throw usageError('the hook name must not be empty');
  const chosen = req.all
    ? // Every active hook Codex would skip for want of trust.
      catalog.declarations.filter((d) => {
        const x = d.extra as unknown as CodexHandlerInfo;
        return d.status === 'active' && (x.trust === 'untrusted' || x.trust === 'modified');
      })
    : names.map((n) => findHook(catalog, n));
  for (const d of chosen) {
    if (isManagedSource(d.source)) {
      throw new HookctlError(
        'codex_trust_managed',
        `hook ${q(d.name!)} is managed; Codex trusts it by policy`,
        ExitCode.no,
      );
    }
  }
  const meta = userConfigMeta(catalog.context);
  const hooks = chosen.map((d) => {
    const x = d.extra as unknown as CodexHandlerInfo;
    return { name: d.name!, key: x.key, hash: x.current_hash, was: x.trust };
  });
  const done = await changeFile(meta.file, meta.fileKind, req, (current) => {
    refuseUnparsedState(meta, current.text);
    let text = current.text;
    for (const h of hooks) text = setStateField(text, h.key, 'trusted_hash', h.hash);
    checkStateWrite(meta, current.text, text);
    return text;
  });
  return {
    dialect: 'codex',
    hooks: hooks.map((h) => ({ name: h.name, key: h.key, hash: h.hash, changed: h.was !== 'trusted' })),
    file: meta.file,
    changed: done.changed,
    ...(done.created ? { created: true } : {}),
    dry_run: req.dryRun,
    ...(req.dryRun ? { diff: done.diff ?? '' } : {}),
    // [ours] Trust is not a status (codex.md §2.3): a named hook that a gate or an error keeps
    // from running stays that way once trusted, and must say so rather than look fixed.
    warnings: req.all
      ? []
      : chosen
          .filter((d) => d.status !== 'active')
          .map(
            (d) => `${d.name!} is ${d.status}: ${d.why ?? 'Codex does not run it'}; trusting it does not make it run`,
          ),
  };
}
