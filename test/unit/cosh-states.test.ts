import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDisabledCoshHooks, setCoshHookDisabled } from '../../src/dialects/cosh/states.js';
import { HookctlError } from '../../src/errors.js';
import { repoRoot } from '../support/cli.js';
import { resolveLocations, type Locations } from '../../src/paths.js';

let root: string;
let loc: Locations;
let statesFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hookctl-cosh-states-'));
  loc = resolveLocations({
    packageRoot: repoRoot,
    workspace: root,
    env: { HOME: root, COSH_HOME: join(root, 'cosh') },
  });
  statesFile = join(root, 'cosh/states/hooks.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('$COSH_HOME/states/hooks.json', () => {
  it('reads nothing disabled when the file is missing or empty', async () => {
    expect(await readDisabledCoshHooks(loc)).toEqual([]);
    mkdirSync(join(root, 'cosh/states'), { recursive: true });
    writeFileSync(statesFile, '  \n');
    expect(await readDisabledCoshHooks(loc)).toEqual([]);
  });

  it('adds and removes names, creating the folder, and reports whether anything changed', async () => {
    expect(await setCoshHookDisabled(loc, 'a', true)).toBe(true);
    expect(await setCoshHookDisabled(loc, 'b', true)).toBe(true);
    expect(await setCoshHookDisabled(loc, 'a', true)).toBe(false);
    expect(JSON.parse(readFileSync(statesFile, 'utf8'))).toEqual({ disabled: ['a', 'b'] });
    expect(await setCoshHookDisabled(loc, 'a', false)).toBe(true);
    expect(await setCoshHookDisabled(loc, 'zzz', false)).toBe(false);
    expect(await readDisabledCoshHooks(loc)).toEqual(['b']);
    // The atomic write leaves no temporary file behind.
    expect(readdirSync(join(root, 'cosh/states'))).toEqual(['hooks.json']);
  });

  it('keeps keys other than disabled', async () => {
    mkdirSync(join(root, 'cosh/states'), { recursive: true });
    writeFileSync(statesFile, JSON.stringify({ version: 2, disabled: ['x'] }));
    await setCoshHookDisabled(loc, 'y', true);
    expect(JSON.parse(readFileSync(statesFile, 'utf8'))).toEqual({ version: 2, disabled: ['x', 'y'] });
  });

  it('refuses to overwrite a broken file', async () => {
    mkdirSync(join(root, 'cosh/states'), { recursive: true });
    writeFileSync(statesFile, '{"disabled": [1]}');
    expect(await readDisabledCoshHooks(loc)).toEqual([]);
    await expect(setCoshHookDisabled(loc, 'y', true)).rejects.toBeInstanceOf(HookctlError);
    expect(readFileSync(statesFile, 'utf8')).toBe('{"disabled": [1]}');
  });
});
