// Secret hygiene for declaration env maps (SPEC §2.1 `env`, `secret_env`; §6.1 `hooks create`).
// A literal env entry may not carry a credential: names that look like one must move to
// secret_env, which holds references (`env:NAME`, `vault:hooks/...`) resolved only at fire time.

/** The daemon-wide grammar for environment variable names. */
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SECRET_NAME_NEEDLES = [
  'SECRET',
  'TOKEN',
  'PASSWORD',
  'PASSWD',
  'API_KEY',
  'APIKEY',
  'PRIVATE_KEY',
  'PRIVATEKEY',
  'AUTHORIZATION',
  'BEARER',
  'CREDENTIAL',
];

/** Names ending like this point at a credential (a URL, a path) rather than holding one. */
const NON_CREDENTIAL_SUFFIXES = ['_URL', '_URI', '_PATH', '_FILE', '_DIR'];

/** Whether an env name conventionally carries credential material (any case). */
export function isSecretLikeName(name: string): boolean {
  const upper = name.trim().toUpperCase();
  if (NON_CREDENTIAL_SUFFIXES.some((suffix) => upper.endsWith(suffix))) return false;
  return SECRET_NAME_NEEDLES.some((needle) => upper.includes(needle));
}

// Well-known credential shapes. Each is specific enough not to fire on paths, URLs or words.
const SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/, // GitHub fine-grained tokens
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic, Stripe-like
  /\b(?:rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/, // Stripe
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/, // AWS access key ids
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
  /\bAIza[0-9A-Za-z_-]{35}/, // Google API keys
  /\bnpm_[A-Za-z0-9]{36}\b/, // npm
  /-----BEGIN [A-Z0-9 ]*(?:PRIVATE KEY|CERTIFICATE|KEY)[A-Z ]*-----/, // PEM blocks
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, // JWTs
  /^\s*(?:bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{16,}\s*$/i, // Authorization header values
  /:\/\/[^/\s:@]+:[^/\s@]+@/, // credentials inside a URL
];

/** Whether a literal value looks like a token, key or password (for `hooks create`/`update`). */
export function looksLikeSecretValue(value: string): boolean {
  if (SECRET_VALUE_PATTERNS.some((re) => re.test(value))) return true;
  return isHighEntropyToken(value.trim());
}

/**
 * A long single token of mixed letters and digits with high character entropy: the shape of a
 * random API key. Paths and URLs are excluded; pure hex (hashes, ids) is not flagged.
 */
function isHighEntropyToken(token: string): boolean {
  if (token.length < 32 || /\s/.test(token)) return false;
  if (!/^[A-Za-z0-9+/=_.-]+$/.test(token)) return false;
  if (token.startsWith('/') || token.startsWith('.') || token.includes('..')) return false;
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/[0-9]/.test(token)) return false;
  return shannonEntropy(token) >= 4.3;
}

function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

export type SecretRef = { kind: 'env'; name: string } | { kind: 'vault'; ref: string };

/** Vault refs hooks may use: the `hooks` namespace, safe path segments. */
const VAULT_HOOKS_REF_RE = /^vault:hooks\/[a-z0-9][a-z0-9_.-]*(?:\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;

/** Parses a secret_env reference; undefined when it is neither `env:NAME` nor `vault:hooks/...`. */
export function parseSecretRef(ref: string): SecretRef | undefined {
  const trimmed = ref.trim();
  if (trimmed.startsWith('env:')) {
    const name = trimmed.slice(4).trim();
    return ENV_NAME_RE.test(name) ? { kind: 'env', name } : undefined;
  }
  if (VAULT_HOOKS_REF_RE.test(trimmed)) return { kind: 'vault', ref: trimmed };
  return undefined;
}
