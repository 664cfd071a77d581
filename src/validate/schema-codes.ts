// The diagnostic codes schema-check.ts emits (`schema_<keyword>`), with a one-line meaning, for
// docs/DIAGNOSTICS.md and the SARIF rule descriptions. Kept apart from schema-check.ts so a
// formatter can read them without loading the precompiled validators.

export const SCHEMA_CODES = {
  schema_type: 'A value has the wrong JSON type for its key (the shipped JSON Schema).',
  schema_enum: 'A value is not one of the values the key allows (the shipped JSON Schema).',
  schema_additional_properties: 'A key that the object does not have (the shipped JSON Schema).',
  schema_required: 'A required key is missing (the shipped JSON Schema).',
  schema_pattern: 'A string does not have the required form (the shipped JSON Schema).',
  schema_minimum: 'A number is below the smallest allowed value (the shipped JSON Schema).',
  schema_maximum: 'A number is above the largest allowed value (the shipped JSON Schema).',
  schema_property_names: 'A map key does not have the required form (the shipped JSON Schema).',
} as const satisfies Record<string, string>;

export type SchemaCode = keyof typeof SCHEMA_CODES;
