import { describe, expect, it } from 'vitest';
import { codexDialect } from '../../src/dialects/codex/index.js';

describe('the codex dialect object', () => {
  it('names the payload session, else a new UUID v4 (codex.md §5.1)', () => {
    expect(codexDialect.sessionIdFor({ session_id: 'abc' })).toBe('abc');
    const fresh = codexDialect.sessionIdFor({});
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(codexDialect.sessionIdFor({})).not.toBe(fresh);
  });
});
