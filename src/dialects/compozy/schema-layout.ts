// Where compozy's declarations sit in the documents its schemas check (schemas/compozy-*.json),
// for the schema diagnostics' source and hook name (src/validate/schema-check.ts).
import type { SchemaLayout } from '../../validate/schema-check.js';

export const COMPOZY_SCHEMA_LAYOUTS: Readonly<Record<string, SchemaLayout>> = {
  'compozy-config': {
    source: 'config',
    hookNameAt: ([a, b, c], nameAt) =>
      a === 'hooks' && b === 'declarations' && typeof c === 'number' ? nameAt([a, b, c]) : undefined,
  },
  'compozy-extension': {
    source: 'extension',
    hookNameAt: ([a, b, c], nameAt) =>
      a === 'resources' && b === 'hooks' && typeof c === 'number' ? nameAt([a, b, c]) : undefined,
  },
  'compozy-agent': {
    source: 'agent_definition',
    root: 'front matter',
    hookNameAt: ([a, b], nameAt) => (a === 'hooks' && typeof b === 'number' ? nameAt([a, b]) : undefined),
  },
  'compozy-skill': {
    source: 'skill',
    root: 'front matter',
    hookNameAt([a, b, c, d], nameAt, valueAt) {
      if (a !== 'metadata' || b !== 'compozy' || c !== 'hooks' || typeof d !== 'number') return undefined;
      // SPEC §2.4: a skill hook is named after the skill, `<skill>#<n>` when it declares several.
      const skill = nameAt([]);
      const hooks = valueAt([a, b, c]);
      if (skill === undefined) return undefined;
      return Array.isArray(hooks) && hooks.length > 1 ? `${skill}#${d + 1}` : skill;
    },
  },
};
