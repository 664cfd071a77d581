// The environment a hook process gets (SPEC §3.4 for compozy, §4.4 for cosh) and the dispatch
// depth carried through it (SPEC §3.3).

/** The only variables a compozy hook inherits from the invoking environment (SPEC §3.4). */
export const HOOK_ENV_ALLOWLIST: readonly string[] = [
  'COMSPEC',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LOGNAME',
  'PATH',
  'PATHEXT',
  'SHELL',
  'SYSTEMROOT',
  'TEMP',
  'TERM',
  'TMP',
  'TMPDIR',
  'USER',
  'USERPROFILE',
];

export const DISPATCH_DEPTH_VAR = 'HOOKCTL_DISPATCH_DEPTH';
/** At most this many nested dispatches (SPEC §3.3). */
export const MAX_DISPATCH_DEPTH = 3;

/**
 * A compozy hook's environment: the allowlisted invoking variables, then the declared env, then
 * the resolved secret_env, then HOOKCTL_DISPATCH_DEPTH, which nothing can override.
 */
export function buildCompozyHookEnv(
  invoking: NodeJS.ProcessEnv,
  declared: Record<string, string>,
  secrets: Record<string, string>,
  depth: number,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of HOOK_ENV_ALLOWLIST) {
    const value = invoking[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, declared, secrets);
  env[DISPATCH_DEPTH_VAR] = String(depth);
  return env;
}

/**
 * A cosh hook's environment. cosh-core starts hooks with its own process environment plus the
 * hook's `env` (no allowlist: that is a compozy rule), so a cosh hook sees the whole invoking
 * environment, then its declared env, then HOOKCTL_DISPATCH_DEPTH.
 */
export function buildCoshHookEnv(
  invoking: NodeJS.ProcessEnv,
  declared: Record<string, string>,
  depth: number,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(invoking)) {
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, declared);
  env[DISPATCH_DEPTH_VAR] = String(depth);
  return env;
}

/**
 * Resolve a declaration's secret_env (name → ref) at fire time. `env:NAME` reads the invoking
 * environment and must be non-empty; `vault:...` cannot be resolved by this CLI. Errors name the
 * secret and the reference, never a value; a ref that is neither form is not echoed, since it may
 * be a secret pasted in by mistake.
 */
export function resolveSecretEnv(
  secretEnv: Record<string, string>,
  invoking: NodeJS.ProcessEnv,
): { env: Record<string, string> } | { error: string } {
  const env: Record<string, string> = {};
  for (const [name, ref] of Object.entries(secretEnv)) {
    const where = `secret_env.${name}`;
    if (ref.startsWith('env:')) {
      const variable = ref.slice('env:'.length);
      if (variable === '') return { error: `${where}: reference "env:" names no variable` };
      const value = invoking[variable];
      if (value === undefined || value === '') {
        return { error: `${where}: environment variable "${variable}" (from "${ref}") is not set or empty` };
      }
      env[name] = value;
    } else if (ref.startsWith('vault:')) {
      return { error: `${where}: "${ref}" cannot be resolved by hookctl: vault references are not supported` };
    } else {
      return { error: `${where}: unsupported secret reference (want "env:NAME" or "vault:...")` };
    }
  }
  return { env };
}

/** The depth this process was started at: HOOKCTL_DISPATCH_DEPTH, 0 when absent or not a count. */
export function dispatchDepthFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env[DISPATCH_DEPTH_VAR]?.trim();
  if (raw === undefined || !/^[0-9]+$/.test(raw)) return 0;
  return Number(raw);
}
