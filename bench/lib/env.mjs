// The environments a figure is measured in (SPEC §11). Every ratio runs both of its commands in
// the same environment, and by default that is the clean one: the inherited environment without
// any NODE_* variable. A variable such as NODE_EXTRA_CA_CERTS (a CA bundle: ~60 ms on every Node
// start on the bench machine) or NODE_OPTIONS weighs on `node -e 0` and on hookctl alike, and
// hides hookctl's own cost in a ratio. `--inherited-env` measures the ratios a second time with
// the environment as it came, shown beside.

/** NODE_* variables that configure hookctl's compile cache: they are kept, on both sides. */
const KEPT_NODE_VARIABLES = ['NODE_DISABLE_COMPILE_CACHE', 'NODE_COMPILE_CACHE'];

const removable = (name) => name.startsWith('NODE_') && !KEPT_NODE_VARIABLES.includes(name);

/** The NODE_* variables the clean environment leaves out (those set in `env`). */
function removedVariables(env = process.env) {
  return Object.keys(env).filter(removable).sort();
}

/** `env` without its NODE_* variables (the compile cache switches kept). */
export function cleanEnv(env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) if (!removable(k) && v !== undefined) out[k] = v;
  return out;
}

/**
 * The environment modes a run measures, each with `apply(env)` and a label for the output. The
 * inherited mode is there only when asked for and when it differs from the clean one.
 */
export function environmentModes({ inherited }) {
  const removed = removedVariables();
  const modes = [{ name: 'clean', label: 'clean', apply: cleanEnv }];
  if (inherited && removed.length > 0)
    modes.push({ name: 'inherited', label: `inherited (${removed.join(', ')})`, apply: (env) => ({ ...env }) });
  return { modes, removed };
}

/** One line for the output: what "clean" means on this run. */
export function environmentNote({ removed, modes }) {
  const what =
    removed.length === 0
      ? 'no NODE_* variable was set, so clean and inherited are the same'
      : `NODE_* variables removed on both sides: ${removed.join(', ')}`;
  const beside = modes.length > 1 ? '; the inherited environment is measured beside, in rows marked so' : '';
  return `Environment: every figure ran in the clean environment (${what}; kept: ${KEPT_NODE_VARIABLES.join(', ')} when set)${beside}.`;
}
