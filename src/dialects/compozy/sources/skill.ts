// SKILL.md (SPEC §2.4): a YAML front matter with `name` and `metadata.compozy.hooks`, a list of
// entries (event, mode, priority, timeout, command, args, env, secret_env, matcher). Hooks are
// named after the skill, or `<skill>#<n>` (1-based) when it declares several. Other
// `metadata.compozy` keys belong to the runtime.
//
// Most skills declare no hooks. Unless asked to be thorough (`hooks validate FILE`), a front
// matter that mentions neither "hooks" nor "compozy" is not parsed at all: that cheap check is
// what keeps thousands of skills fast to load.
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import {
  frontMatterRefusal,
  parseFrontMatter,
  splitFrontMatter,
  unterminatedFrontMatter,
} from '../../../declarations/frontmatter.js';
import type { CompozySkillSource as SkillSource } from '../model.js';
import type { RawHook } from '../rules/declaration.js';
import { makeDiagnostic } from '../../../declarations/source-file.js';
import { isTable, positionOf } from './common.js';

export interface SkillFile {
  file: string;
  /** The front matter's name, when it has one. */
  name?: string;
  raws: RawHook[];
  diagnostics: Diagnostic[];
}

export interface SkillOptions {
  skillSource: SkillSource;
  /** Working directory of the skill's hooks (the workspace). */
  cwd: string;
  /** Parse every front matter, even one that cannot declare hooks. */
  thorough?: boolean;
  /** The file began with a UTF-8 byte-order mark (dropped from the text): CompozyOS refuses it. */
  bom?: boolean;
}

export function parseSkillFile(text: string, file: string, opts: SkillOptions): SkillFile {
  const result: SkillFile = { file, raws: [], diagnostics: [] };
  const split = splitFrontMatter(text);
  // As CompozyOS: no front matter, or a BOM before it, and the skill is refused (no hooks).
  const refusal = frontMatterRefusal(split, opts.bom === true, 'SKILL.md', file, 'skill');
  if (refusal) {
    result.diagnostics.push(refusal);
    return result;
  }
  if (split.kind === 'none') return result;
  if (split.kind === 'unterminated') {
    if (opts.thorough || text.includes('hooks')) {
      result.diagnostics.push(unterminatedFrontMatter(split.delimiter, file, 'skill'));
    }
    return result;
  }
  const block = split.block;
  if (!opts.thorough && !block.text.includes('hooks') && !block.text.includes('compozy')) return result;

  const fm = parseFrontMatter(block, file, 'skill');
  result.diagnostics.push(...fm.diagnostics);
  const data = fm.data;
  if (data === undefined) return result;
  const start = { line: block.firstLine };
  const diag = (
    severity: 'error' | 'warning',
    code: 'compozy_metadata_not_a_map' | 'invalid_section' | 'skill_name_required',
    message: string,
    path: string[],
  ): void => {
    result.diagnostics.push(
      makeDiagnostic(severity, code, message, file, positionOf(fm.locate, path, start), { source: 'skill' }),
    );
  };
  if (typeof data.name === 'string' && data.name.trim() !== '') result.name = data.name.trim();

  const metadata = data.metadata;
  if (!isTable(metadata)) return result; // skill metadata is the runtime's; no compozy block, no hooks
  const compozy = metadata.compozy;
  if (compozy === undefined || compozy === null) return result;
  if (!isTable(compozy)) {
    // As the runtime does: a warning, and the skill loads without hooks.
    diag('warning', 'compozy_metadata_not_a_map', 'metadata.compozy must be a map; the skill contributes no hooks', [
      'metadata',
      'compozy',
    ]);
    return result;
  }
  const hooks = compozy.hooks;
  if (hooks === undefined || hooks === null) return result;
  if (!Array.isArray(hooks)) {
    diag('error', 'invalid_section', 'metadata.compozy.hooks must be a list of hook entries', [
      'metadata',
      'compozy',
      'hooks',
    ]);
    return result;
  }
  if (hooks.length === 0) return result;
  if (result.name === undefined) {
    diag('error', 'skill_name_required', 'skill front matter has no name, so its hooks cannot be named', ['name']);
    return result;
  }
  const skillName = result.name;
  hooks.forEach((value: unknown, i) => {
    const path = ['metadata', 'compozy', 'hooks', i];
    result.raws.push({
      source: 'skill',
      skillSource: opts.skillSource,
      file,
      position: positionOf(fm.locate, path, start),
      path,
      locate: fm.locate,
      value,
      cwd: opts.cwd,
      generatedName: hooks.length === 1 ? skillName : `${skillName}#${i + 1}`,
    });
  });
  return result;
}

/**
 * A SKILL.md reached through a symbolic link that leads out of its skill folder: CompozyOS
 * refuses it (`escapes skill root`), as extension commands are refused. Undefined when the file
 * is not a link (the common case costs one lstat), is missing, or stays inside.
 */
export function skillFileEscape(skillDir: string, file: string): Diagnostic | undefined {
  let isLink: boolean;
  try {
    isLink = lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return undefined; // unreadable: the read reports it
  }
  if (!isLink) return undefined;
  let real: string;
  let root: string;
  try {
    real = realpathSync(file);
    root = realpathSync(skillDir);
  } catch {
    return undefined; // a dangling link: the read reports it missing
  }
  if (real.startsWith(root + sep)) return undefined;
  const message = `path ${JSON.stringify(real)} escapes skill root ${JSON.stringify(root)}`;
  return makeDiagnostic('error', 'path_escapes_root', message, file, { line: 1 }, { source: 'skill' });
}

/** A marketplace install's sidecar (`.compozy-meta.json` in the skill's folder). */
export interface MarketplaceIdentity {
  registry?: string;
  slug?: string;
  hash?: string;
}

const MARKETPLACE_SIDECAR = '.compozy-meta.json';

/**
 * Reads a skill folder's sidecar: undefined when there is none (not a marketplace skill); an
 * unreadable one still marks the skill as marketplace, with no identity (so it stays blocked).
 */
export function readMarketplaceSidecar(
  skillDir: string,
): { identity: MarketplaceIdentity; diagnostic?: Diagnostic } | undefined {
  const file = join(skillDir, MARKETPLACE_SIDECAR);
  if (!existsSync(file)) return undefined; // the common case, without the cost of a thrown ENOENT
  let text: string;
  try {
    // Synchronous: it is read in the same sweep as the SKILL.md files (see load.ts).
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { identity: {}, diagnostic: sidecarWarning(file, (err as Error).message) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { identity: {}, diagnostic: sidecarWarning(file, (err as Error).message) };
  }
  if (!isTable(value)) return { identity: {}, diagnostic: sidecarWarning(file, 'it is not a JSON object') };
  const field = (k: string): string | undefined =>
    typeof value[k] === 'string' && value[k].trim() !== '' ? value[k].trim() : undefined;
  return { identity: { registry: field('registry'), slug: field('slug'), hash: field('hash') } };
}

function sidecarWarning(file: string, why: string): Diagnostic {
  return makeDiagnostic(
    'warning',
    'marketplace_sidecar_invalid',
    `cannot read marketplace sidecar: ${why}; the skill's hooks stay blocked`,
    file,
    {
      line: 1,
    },
    { source: 'skill' },
  );
}

/** Whether the global allowlist lets a marketplace skill's hooks run (by slug, registry:slug or hash). */
export function marketplaceAllowed(identity: MarketplaceIdentity, allowlist: readonly string[]): boolean {
  const keys = new Set<string>();
  if (identity.slug) keys.add(identity.slug);
  if (identity.slug && identity.registry) keys.add(`${identity.registry}:${identity.slug}`);
  if (identity.hash) keys.add(identity.hash);
  return allowlist.some((entry) => keys.has(entry));
}

export function blockedWhy(identity: MarketplaceIdentity): string {
  const who = identity.slug ? `marketplace skill ${JSON.stringify(identity.slug)}` : 'marketplace skill';
  return `${who} is not listed in skills.allowed_marketplace_hooks of the global config.toml`;
}
