// Where cosh's declarations sit in the documents its schemas check (schemas/cosh-*.json): both
// keep the event map at `hooks`, where an unknown key is an unknown event (an error); any other
// unknown key only warns, as cosh itself ignores it.
import type { SchemaLayout } from '../../validate/schema-check.js';

export const COSH_SCHEMA_LAYOUTS: Readonly<Record<string, SchemaLayout>> = {
  'cosh-config': {
    source: 'cosh_config',
    eventMap: '/hooks',
    unknownKeysWarn: true,
    hookNameAt: ([a, b, c], nameAt) =>
      a === 'hooks' && typeof b === 'string' && typeof c === 'number' ? nameAt([a, b, c]) : undefined,
  },
  'cosh-extension': {
    source: 'cosh_extension',
    eventMap: '/hooks',
    unknownKeysWarn: true,
    hookNameAt: ([a, b, c, d, e], nameAt) =>
      a === 'hooks' && typeof b === 'string' && typeof c === 'number' && d === 'hooks' && typeof e === 'number'
        ? nameAt([a, b, c, d, e])
        : undefined,
  },
};
