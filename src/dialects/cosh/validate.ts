// `hooks validate` for cosh files (SPEC §4.2, §6): a named file this dialect claims (a config
// layer or an extension manifest, told by name and content), and the documents its JSON Schemas
// check.
import type { FileValidation, SchemaDocument } from '../types.js';
import type { Locations } from '../../paths.js';
import { detectCoshFileKind, validateCoshFile } from './load.js';
import { COSH_SCHEMA_LAYOUTS } from './schema-layout.js';

export async function validateCoshNamedFile(
  file: string,
  text: string | undefined,
  loc: Locations,
  env: NodeJS.ProcessEnv,
): Promise<FileValidation | undefined> {
  if (!detectCoshFileKind(file, text ?? '')) return undefined;
  const cosh = await validateCoshFile(file, loc, env);
  return { diagnostics: cosh.diagnostics, schema: cosh.kind === 'cosh_config' ? 'cosh-config' : 'cosh-extension' };
}

export async function coshSchemaDocument(
  kind: string,
  _file: string,
  text: string,
): Promise<SchemaDocument | undefined> {
  if (kind === 'cosh-config') {
    const [{ parse }, { locateTomlKeys }] = await Promise.all([
      import('smol-toml'),
      import('../../declarations/toml-locate.js'),
    ]);
    try {
      return {
        document: parse(text) as Record<string, unknown>,
        locate: locateTomlKeys(text).locate,
        layout: COSH_SCHEMA_LAYOUTS[kind],
      };
    } catch {
      return undefined;
    }
  }
  if (kind === 'cosh-extension') {
    const { parseJsonWithPositions } = await import('../../declarations/json-locate.js');
    const parsed = parseJsonWithPositions(text);
    return parsed.ok ? { document: parsed.value, locate: parsed.locate, layout: COSH_SCHEMA_LAYOUTS[kind] } : undefined;
  }
  return undefined;
}
