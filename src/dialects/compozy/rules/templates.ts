// Extension hook templates (SPEC §2.4): `{{config_dir}}` is the extension root and
// `{{env:NAME}}` reads the invoking environment (missing = empty string). They expand in
// `command`, each `args` item and each `env` value before the command is resolved.
// Other `{{...}}` text is left as written (a hook may pass a Go or Mustache template on).
import { ENV_NAME_RE, isSecretLikeName } from '../../../declarations/secrets.js';

export interface TemplateContext {
  configDir: string;
  env: NodeJS.ProcessEnv;
}

export type Expanded =
  { ok: true; value: string } | { ok: false; code: 'invalid_env_template' | 'env_template_secret'; message: string };

export function expandTemplates(value: string, ctx: TemplateContext): Expanded {
  if (!value.includes('{{')) return { ok: true, value };
  let out = '';
  let i = 0;
  for (;;) {
    const open = value.indexOf('{{', i);
    if (open === -1) break;
    const close = value.indexOf('}}', open + 2);
    if (close === -1) return invalid(value);
    out += value.slice(i, open);
    const inner = value.slice(open + 2, close).trim();
    if (inner === 'config_dir') out += ctx.configDir;
    else if (inner.startsWith('env:')) {
      const name = inner.slice(4).trim();
      if (!ENV_NAME_RE.test(name)) return invalid(value);
      if (isSecretLikeName(name)) {
        return {
          ok: false,
          code: 'env_template_secret',
          message: `env template ${JSON.stringify(name)} must use secret_env`,
        };
      }
      out += ctx.env[name] ?? '';
    } else out += value.slice(open, close + 2);
    i = close + 2;
  }
  return { ok: true, value: out + value.slice(i) };
}

function invalid(value: string): Expanded {
  return { ok: false, code: 'invalid_env_template', message: `invalid env template ${JSON.stringify(value)}` };
}
