// The choice of an event's dialect is the use case's, for every dialect alike (claude.md §7, rule
// 3 revised; issue 28): two dialects from the test folder share an event, each reading its own
// real file with the fake dialect's loader, and a source error in one makes it count as declaring
// every event of its catalog. No dialect is named by the rule: it holds for these two as for
// claude and cosh (test/e2e/dialect-choice.test.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDispatchable, chooseDialect, loadEventCatalog, planFire } from '../../src/app/fire.js';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import { registerDialect } from '../../src/dialects/registry.js';
import type { Dialect } from '../../src/dialects/types.js';
import { HookctlError } from '../../src/errors.js';
import { resolveLocations, type Locations } from '../../src/paths.js';
import { FAKE_FILE, fakeDialect } from '../support/fake-dialect.js';
import { tempDir } from '../support/temp.js';

/** The fake dialect under another name, reading `<workspace>/<name>/.fake/fake-hooks.json`. */
function fakeNamed(name: string): Dialect {
  return {
    ...fakeDialect,
    name,
    loadCatalog: (loc, env) => fakeDialect.loadCatalog({ ...loc, workspace: join(loc.workspace, name) }, env),
  };
}

const alpha = fakeNamed('alpha');
const beta = fakeNamed('beta');
let root: string;
let undo: (() => void)[] = [];

beforeAll(() => {
  undo = [registerDialect(alpha), registerDialect(beta)];
});
afterAll(() => {
  for (const u of undo) u();
});

function workspace(files: { alpha?: string; beta?: string }): Locations {
  root = tempDir('hookctl-dialect-choice-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '.fake'), { recursive: true });
    writeFileSync(join(root, name, '.fake', FAKE_FILE), text);
  }
  return resolveLocations({ workspace: root, env: { HOME: join(root, 'home') }, cwd: root, packageRoot: root });
}

const GUARD = '[\n{"name": "guard", "event": "fake.before", "command": "/bin/true"}\n]\n';
const AFTER_ONLY = '[\n{"name": "later", "event": "fake.after", "command": "/bin/true"}\n]\n';
const NOT_JSON = '[\n{"name": "guard", "event": "fake.before", "command": "/bin/true"},\n]\n';
const TYPO = '[\n{"name": "guard", "event": "fake.befor", "command": "/bin/true"}\n]\n';

const choose = (loc: Locations) =>
  chooseDialect([alpha, beta], 'fake.before', (d) => d.loadCatalog(loc, {})).then((c) => c.dialect.name);

async function thrown(p: Promise<unknown>): Promise<HookctlError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HookctlError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('choosing the dialect of an event two dialects know', () => {
  it('as before: the one that declares it; none falls back to the first; both is ambiguous', async () => {
    expect(await choose(workspace({ beta: GUARD }))).toBe('beta');
    expect(await choose(workspace({ alpha: AFTER_ONLY, beta: AFTER_ONLY }))).toBe('alpha');
    const e = await thrown(choose(workspace({ alpha: GUARD, beta: GUARD })));
    expect(e.code).toBe('ambiguous_dialect');
  });

  it('a dialect whose source does not parse counts as declaring the event: it is chosen, and fire refuses', async () => {
    // Before: beta declared nothing, so alpha (the first) was used and the event passed unguarded.
    const loc = workspace({ alpha: AFTER_ONLY, beta: NOT_JSON });
    expect(await choose(loc)).toBe('beta');
    const loaded = await loadEventCatalog({ event: 'fake.before', loc, env: {} });
    expect(loaded.dialect.name).toBe('beta');
    const refused = (() => {
      try {
        assertDispatchable(loaded);
      } catch (e) {
        return e as HookctlError;
      }
      return undefined;
    })();
    expect(refused?.code).toBe('declarations_invalid');
    expect(refused?.details).toEqual([`${join(root, 'beta', '.fake', FAKE_FILE)}:1: fake: not JSON`]);
  });

  it('a misspelt event in one dialect beside a declaration in the other: ambiguous, naming both', async () => {
    const e = await thrown(choose(workspace({ alpha: GUARD, beta: TYPO })));
    expect(e.code).toBe('ambiguous_dialect');
    expect(e.message).toBe(
      'event "fake.before" is declared in more than one dialect (alpha, beta); pass --dialect alpha or --dialect beta',
    );
  });

  it('an error in a source counts for every event of the catalog, not only the one it names', async () => {
    const loc = workspace({ beta: TYPO });
    expect((await loadEventCatalog({ event: 'fake.after', loc, env: {} })).dialect.name).toBe('beta');
  });

  it('fire --dry-run plans the broken dialect and hands its errors to the caller', async () => {
    const loc = workspace({ alpha: AFTER_ONLY, beta: NOT_JSON });
    const seen: [string, Diagnostic[]][] = [];
    const plan = await planFire({
      event: 'fake.before',
      payloadText: '{}',
      loc,
      env: {},
      onSourceErrors: (event, errors) => seen.push([event, errors]),
    });
    expect(plan).toEqual({ event: 'fake.before', dialect: 'beta', plan: [] });
    expect(seen.map(([event, errors]) => [event, errors.map((d) => d.message)])).toEqual([
      ['fake.before', ['fake: not JSON']],
    ]);
  });
});
