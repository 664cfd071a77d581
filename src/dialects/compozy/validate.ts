// `hooks validate` for CompozyOS files (SPEC §6): one named file's rule diagnostics, the JSON
// Schema kind of each file, and the document a schema checks. compozy is the dialect asked last
// for a named file: it also reports files no dialect claims (unknown_file_kind).
import { resolve } from 'node:path';
import type { FileValidation, SchemaDocument } from '../types.js';
import type { Locations } from '../../paths.js';
import { detectCompozyFileKind, type CompozyFileKind } from './sources/detect.js';
import { parseCompozyDocument, validateCompozyFile } from './sources/load.js';
import { COMPOZY_SCHEMA_LAYOUTS } from './schema-layout.js';

/** The schema of each compozy file kind (schemas/compozy-*.schema.json). */
const SCHEMA_OF_KIND = {
  config: 'compozy-config',
  extension_toml: 'compozy-extension',
  extension_json: 'compozy-extension',
  agent: 'compozy-agent',
  skill: 'compozy-skill',
} as const satisfies Record<CompozyFileKind, string>;

const KIND_OF_SCHEMA: Readonly<Record<string, CompozyFileKind | undefined>> = {
  'compozy-config': 'config',
  'compozy-agent': 'agent',
  'compozy-skill': 'skill',
};

export async function validateCompozyNamedFile(
  file: string,
  text: string | undefined,
  loc: Locations,
  env: NodeJS.ProcessEnv,
): Promise<FileValidation> {
  const kind = text === undefined ? undefined : detectCompozyFileKind(resolve(file), text);
  const { diagnostics } = await validateCompozyFile(file, loc, env);
  return kind === undefined ? { diagnostics } : { diagnostics, schema: SCHEMA_OF_KIND[kind] };
}

export async function compozySchemaDocument(
  kind: string,
  file: string,
  text: string,
): Promise<SchemaDocument | undefined> {
  // Most skills declare no hooks: skip those without parsing them again (thousands stay fast).
  if (kind === 'compozy-skill' && !text.includes('hooks')) return undefined;
  const compozyKind =
    kind === 'compozy-extension'
      ? file.toLowerCase().endsWith('.json')
        ? 'extension_json'
        : 'extension_toml'
      : KIND_OF_SCHEMA[kind];
  if (compozyKind === undefined) return undefined;
  const parsed = await parseCompozyDocument(compozyKind, file, text);
  if (parsed === undefined) return undefined;
  // A skill is ours only through metadata.compozy.hooks; the rest of its front matter (a skill
  // without a name included) is the runtime's business.
  if (kind === 'compozy-skill' && !declaresSkillHooks(parsed.document)) return undefined;
  return { ...parsed, layout: COMPOZY_SCHEMA_LAYOUTS[kind] };
}

function declaresSkillHooks(document: unknown): boolean {
  const metadata = isRecord(document) ? document.metadata : undefined;
  const compozy = isRecord(metadata) ? metadata.compozy : undefined;
  return isRecord(compozy) && compozy.hooks !== undefined && compozy.hooks !== null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
