// config.toml (SPEC §2.4): hooks in `[[hooks.declarations]]`, with nested matcher, autonomy and
// executor tables. Only `hooks.declarations` is ours; the other tables (and other keys of
// `[hooks]`) belong to the host runtime. The global file also carries the marketplace
// allowlist `skills.allowed_marketplace_hooks`.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import type { RawHook } from '../rules/declaration.js';
import { makeDiagnostic, type Position } from '../../../declarations/source-file.js';
import { isTable, markDuplicateNames, parseTomlDocument, positionOf } from './common.js';

export interface ConfigFile {
  file: string;
  raws: RawHook[];
  diagnostics: Diagnostic[];
  /** `skills.allowed_marketplace_hooks`, when the file sets it as a list of strings. */
  allowedMarketplaceHooks?: string[];
}

/**
 * Parses one config.toml; `cwd` is the working directory of its hooks (the workspace). Only the
 * global file's marketplace allowlist counts, so only there (`global`) is it read.
 */
export function parseConfigToml(text: string, file: string, cwd: string, opts: { global?: boolean } = {}): ConfigFile {
  const result: ConfigFile = { file, raws: [], diagnostics: [] };
  const parsed = parseTomlDocument(text, file, 'config');
  if (!parsed.ok) {
    result.diagnostics.push(parsed.diagnostic);
    return result;
  }
  const { data, locate } = parsed;
  const sectionError = (message: string, at: Position): void => {
    result.diagnostics.push(makeDiagnostic('error', 'invalid_section', message, file, at, { source: 'config' }));
  };

  const hooks = data.hooks;
  if (hooks !== undefined && !isTable(hooks)) sectionError('hooks must be a table', positionOf(locate, ['hooks']));
  const declarations = isTable(hooks) ? hooks.declarations : undefined;
  if (declarations !== undefined && !Array.isArray(declarations)) {
    sectionError(
      'hooks.declarations must be an array of tables ([[hooks.declarations]])',
      positionOf(locate, ['hooks', 'declarations']),
    );
  }
  if (Array.isArray(declarations)) {
    declarations.forEach((value, i) => {
      const path = ['hooks', 'declarations', i];
      result.raws.push({ source: 'config', file, position: positionOf(locate, path), path, locate, value, cwd });
    });
  }
  result.diagnostics.push(...markDuplicateNames(result.raws));

  const skills = data.skills;
  const allowlist = opts.global && isTable(skills) ? skills.allowed_marketplace_hooks : undefined;
  if (allowlist !== undefined) {
    if (Array.isArray(allowlist) && allowlist.every((entry) => typeof entry === 'string')) {
      result.allowedMarketplaceHooks = allowlist.map((entry: string) => entry.trim()).filter((entry) => entry !== '');
    } else {
      result.diagnostics.push(
        makeDiagnostic(
          'warning',
          'invalid_marketplace_allowlist',
          'skills.allowed_marketplace_hooks must be a list of strings (slug, registry:slug or hash); marketplace skill hooks stay blocked',
          file,
          positionOf(locate, ['skills', 'allowed_marketplace_hooks']),
          { source: 'config' },
        ),
      );
    }
  }
  return result;
}
