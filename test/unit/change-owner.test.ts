// Which dialect runs a change (src/app/change-owner.ts), and the misspelt event of a create
// without a NAME (issue 22): named as such, not answered with "needs a NAME".
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeOwner, resolveChangeOwner } from '../../src/app/change-owner.js';
import type { Locations } from '../../src/paths.js';
import { isolatedEnv } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

describe('changeOwner', () => {
  it('a create without a NAME whose event no dialect knows is unknown_event with the closest', () => {
    expect(() => changeOwner({ action: 'create', event: 'PreToolUSe' })).toThrow(
      'unknown event "PreToolUSe"; did you mean "PreToolUse"?',
    );
    try {
      changeOwner({ action: 'create', event: 'PreToolUSe' });
    } catch (err) {
      expect(err).toMatchObject({ code: 'unknown_event', exit: 2 });
    }
  });

  it('a known event picks its dialect; a NAME or --dialect leaves the event to the dialect', () => {
    expect(changeOwner({ action: 'create', event: 'PreToolUse' })?.name).toBe('claude');
    expect(changeOwner({ action: 'create', event: 'tool.pre_call' })).toBeUndefined();
    expect(changeOwner({ action: 'create', name: 'x', event: 'tool.pre_cal' })).toBeUndefined();
    expect(changeOwner({ action: 'create', event: 'PreToolUSe', dialect: 'claude' })?.name).toBe('claude');
  });

  it("codex: its names and its own events are its; an event claude shares stays claude's", () => {
    expect(changeOwner({ action: 'create', event: 'Interrupt' })?.name).toBe('codex');
    expect(changeOwner({ action: 'create', event: 'PermissionRequest' })?.name).toBe('claude');
    expect(changeOwner({ action: 'create', event: 'PreToolUse', dialect: 'codex' })?.name).toBe('codex');
    for (const name of [
      'user/hooks.json:PreToolUse:1.1',
      'project/.codex/config.toml:Stop:2.1',
      'project/sub/dir/.codex/hooks.json:Interrupt:1.3',
      'system/hooks.json:Stop:1.1',
      'managed/requirements.toml:PreToolUse:1.1',
    ]) {
      expect(changeOwner({ action: 'update', name })?.name, name).toBe('codex');
    }
    expect(changeOwner({ action: 'update', name: 'project:PreToolUse:1.1' })?.name).toBe('claude');
    expect(changeOwner({ action: 'update', name: 'user/hooks.json:NoSuchEvent:1.1' })).toBeUndefined();
  });

  it("a NAME two dialects' forms fit goes to the one whose sources declare it", async () => {
    const root = tempDir('hookctl-owner-');
    const plugin = join(root, 'plug');
    mkdirSync(join(plugin, '.codex-plugin'), { recursive: true });
    mkdirSync(join(plugin, 'hooks'));
    writeFileSync(join(plugin, '.codex-plugin', 'plugin.json'), '{"name":"demo"}');
    writeFileSync(
      join(plugin, 'hooks', 'hooks.json'),
      '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"./p.sh"}]}]}}',
    );
    const env = isolatedEnv({ home: join(root, 'home') });
    const loc = { workspace: root, stateDir: join(root, 'state'), pluginDirs: [plugin] } as unknown as Locations;
    const name = 'plugin/demo/hooks/hooks.json:PreToolUse:1.1';
    expect(changeOwner({ action: 'disable', name })?.name).toBe('claude');
    expect((await resolveChangeOwner({ action: 'disable', name }, loc, env))?.name).toBe('codex');
  });
});
