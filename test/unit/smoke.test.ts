import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import { resolveLocations } from '../../src/paths.js';

describe('paths', () => {
  it('honours COMPOZY_HOME and --workspace', () => {
    const l = resolveLocations({
      packageRoot: repoRoot,
      workspace: 'ws',
      env: { COMPOZY_HOME: '/h', HOME: '/home/x' },
      cwd: '/c',
    });
    expect(l.compozyHome).toBe('/h');
    expect(l.workspace).toBe('/c/ws');
    expect(l.coshHome).toBe('/home/x/.copilot-shell');
  });
});
