// The claude dialect skips its loader when none of the folders it reads exists (start-up of
// `list`/`info` where Claude Code is not set up): the shortcut must give what the loader gives.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { claudeDialect } from '../../src/dialects/claude/index.js';
import { loadClaudeSources } from '../../src/dialects/claude/sources/load.js';
import { claudeLocations, nothingToRead } from '../../src/dialects/claude/locations.js';
import { makeClaudeTree, oneHook, type ClaudeTree } from '../support/claude-tree.js';

let t: ClaudeTree;
beforeEach(() => {
  t = makeClaudeTree();
});

const loc = () => ({ workspace: t.workspace, stateDir: join(t.workspace, '..', 'state'), pluginDirs: [] as string[] });
const viaDialect = () => claudeDialect.loadCatalog(loc() as never, t.env);

describe('claude: nothing to read', () => {
  it('with no claude folder, the dialect returns exactly what the loader returns', async () => {
    expect(nothingToRead(claudeLocations(loc(), t.env))).toBe(true);
    expect(await viaDialect()).toEqual(await loadClaudeSources(loc(), t.env));
  });

  it.each(['home/.claude', 'managed', 'ws/.claude'])('an existing %s is read', async (dir) => {
    mkdirSync(join(t.workspace, '..', dir), { recursive: true });
    expect(nothingToRead(claudeLocations(loc(), t.env))).toBe(false);
  });

  it('a hook in the only existing folder is listed', async () => {
    t.write('ws/.claude/settings.json', oneHook('Stop', { type: 'command', command: 'x' }));
    expect((await viaDialect()).declarations.map((d) => d.event)).toEqual(['Stop']);
  });

  it("the git root's .claude counts", async () => {
    mkdirSync(join(t.workspace, '..', '.git'));
    mkdirSync(join(t.workspace, 'sub'), { recursive: true });
    mkdirSync(join(t.workspace, '..', '.claude'));
    expect(nothingToRead(claudeLocations({ workspace: join(t.workspace, 'sub') }, t.env))).toBe(false);
  });

  it('a --plugin-dir always goes to the loader', () => {
    expect(nothingToRead(claudeLocations({ ...loc(), pluginDirs: ['/nowhere'] }, t.env))).toBe(false);
  });
});
