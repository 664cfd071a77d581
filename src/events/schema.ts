// JSON Schema (draft-07) documents for `hooks events EVENT --schema`, built from a catalog's type
// strings: string, boolean, integer, number, object (free-form map), json (any JSON value),
// string_map (string→string), array<string>, object:<Type>, array<object:<Type>>. Each dialect
// builds its payload and answer documents with these (src/dialects/<name>/event-detail.ts).

export type JsonSchema = Record<string, unknown>;

export interface EventSchemas {
  payload: JsonSchema;
  /** What a hook may answer (compozy: the patch; cosh: the decision object). */
  patch: JsonSchema;
  /**
   * What `hooks events EVENT --schema` prints when it is one schema rather than `{payload,
   * patch}` (claude: the payload's, claude.md §7).
   */
  document?: JsonSchema;
}

/** An object type of a catalog: field name → type string, and closed value sets. */
export interface ObjectType {
  fields: Record<string, string>;
  /** Present only where the runtime defines a closed set of values. */
  enums?: Record<string, string[]>;
}

/** The nested type a field type refers to (`object:T` or `array<object:T>`), else undefined. */
export function nestedTypeName(type: string): string | undefined {
  return /^(?:array<)?object:([A-Za-z0-9_]+)>?$/.exec(type)?.[1];
}

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

// ---------------------------------------------------------------------------------------------
// type strings → schema

export interface Builder {
  lookup: (typeName: string) => ObjectType | undefined;
  /** additionalProperties: false on every object type (patch decoding is strict). */
  strict: boolean;
  definitions: Record<string, JsonSchema>;
}

/** One field type (the catalog's vocabulary) as a schema; nested types go to `definitions`. */
export function typeSchema(type: string, b: Builder): JsonSchema {
  switch (type) {
    case 'string':
    case 'boolean':
    case 'integer':
    case 'number':
      return { type };
    case 'object':
      return { type: 'object' };
    case 'json':
      return {};
    case 'string_map':
      return { type: 'object', additionalProperties: { type: 'string' } };
    case 'array<string>':
      return { type: 'array', items: { type: 'string' } };
  }
  const nested = nestedTypeName(type);
  if (!nested) throw new Error(`schema: unknown field type "${type}"`);
  const ref = { $ref: `#/definitions/${nested}` };
  defineNested(nested, b);
  return type.startsWith('array<') ? { type: 'array', items: ref } : ref;
}

function defineNested(name: string, b: Builder): void {
  if (Object.hasOwn(b.definitions, name)) return;
  const t = b.lookup(name);
  if (!t) throw new Error(`schema: unknown nested type "${name}"`);
  b.definitions[name] = {}; // placeholder first, so a self-referencing type terminates
  b.definitions[name] = { title: name, ...objectSchema(t, b) };
}

export function objectSchema(t: ObjectType, b: Builder, describe?: (field: string) => string | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [field, type] of Object.entries(t.fields)) {
    const schema = typeSchema(type, b);
    const values = t.enums?.[field];
    if (values) schema.enum = [...values];
    const description = describe?.(field);
    properties[field] = description ? { description, ...schema } : schema;
  }
  return b.strict ? { type: 'object', properties, additionalProperties: false } : { type: 'object', properties };
}

export function document(title: string, description: string, body: JsonSchema, b: Builder): JsonSchema {
  const doc: JsonSchema = { $schema: DRAFT_07, title, description, ...body };
  if (Object.keys(b.definitions).length > 0) doc.definitions = b.definitions;
  return doc;
}
