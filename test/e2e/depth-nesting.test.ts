// Dispatch depth (SPEC §3.3) end to end: a hook that itself runs `hookctl hooks fire`, so each
// level dispatches one deeper through HOOKCTL_DISPATCH_DEPTH, until depth 4 fails (sync) or
// records its async hooks `skipped`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath } from '../support/cli.js';
import { emitHook, makeSandbox, removeSandboxes, parseJson, type FireJson } from './fire-support.js';

afterAll(removeSandboxes);

const DEPTH_ERROR = (event: string) => `hooks: dispatch depth exceeded for event "${event}": depth 4 exceeds max 3`;

describe.concurrent('hooks fire: dispatch depth', () => {
  it('a hook that fires again nests until depth 4 fails with exit 3; async hooks past 3 are skipped', async () => {
    const box = makeSandbox();
    box.writeConfig([
      {
        name: 'recurse',
        event: 'tool.pre_call',
        mode: 'sync',
        timeout: '120s',
        command: box.hook('nested-fire.sh'),
        args: ['tool.pre_call', 'session.post_create'],
        // COMPOZY_HOME is not on the allowlist: the declaration passes it on explicitly.
        env: { HOOKCTL_BIN: binPath, WS: box.workspace, OUT_DIR: box.out, COMPOZY_HOME: box.home },
      },
      emitHook(box, 'late-async', 'session.post_create', '{}', { mode: 'async' }),
    ]);
    const res = await box.cli(['hooks', 'fire', 'tool.pre_call', '-o', 'json'], {
      input: '{"session_id":"deep","tool_id":"t"}',
      timeoutMs: 150_000,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(parseJson<FireJson>(res.stdout).runs.map((r) => [r.outcome, r.dispatch_depth])).toEqual([['applied', 1]]);

    const nested = (depth: number, event: string) => {
      const base = join(box.out, `from-depth-${depth}-${event}`);
      expect(existsSync(`${base}.code`), `${base}.code`).toBe(true);
      return {
        code: Number(readFileSync(`${base}.code`, 'utf8')),
        out: parseJson<FireJson>(readFileSync(`${base}.json`, 'utf8')),
        err: readFileSync(`${base}.err`, 'utf8'),
      };
    };
    // The hooks at depth 1 and 2 started fires at depth 2 and 3, which ran.
    for (const depth of [1, 2]) {
      const sync = nested(depth, 'tool.pre_call');
      expect(sync.code, sync.err).toBe(0);
      expect(sync.out.runs.map((r) => [r.hook_name, r.dispatch_depth])).toEqual([['recurse', depth + 1]]);
      const async = nested(depth, 'session.post_create');
      expect(async.code, async.err).toBe(0);
      expect(async.out.runs.map((r) => [r.hook_name, r.outcome, r.dispatch_depth])).toEqual([
        ['late-async', 'applied', depth + 1],
      ]);
    }
    // The hook at depth 3 started fires at depth 4: the sync one fails before running anything...
    const tooDeep = nested(3, 'tool.pre_call');
    expect(tooDeep.code).toBe(3);
    expect(tooDeep.out).toMatchObject({ verdict: 'failed', error: DEPTH_ERROR('tool.pre_call'), runs: [] });
    // ...and the async-only one records its hook skipped.
    const skipped = nested(3, 'session.post_create');
    expect(skipped.code, skipped.err).toBe(0);
    expect(skipped.out.runs.map((r) => [r.hook_name, r.outcome, r.dispatch_depth, r.error])).toEqual([
      ['late-async', 'skipped', 4, DEPTH_ERROR('session.post_create')],
    ]);
    expect(skipped.out.runs[0]!.exit_code).toBeNull();

    // Every level recorded into the one session named by the payload; depth 4 ran nothing.
    const logged = box.records('deep');
    const recurse = logged.filter((r) => r.hook_name === 'recurse');
    expect(recurse.map((r) => r.dispatch_depth).sort()).toEqual([1, 2, 3]);
    expect(new Set(recurse.map((r) => r.dispatch_id)).size).toBe(3);
    expect(
      logged
        .filter((r) => r.hook_name === 'late-async')
        .map((r) => [r.outcome, r.dispatch_depth])
        .sort(),
    ).toEqual([
      ['applied', 2],
      ['applied', 3],
      ['skipped', 4],
    ]);
  }, 180_000);

  it('reads the depth from HOOKCTL_DISPATCH_DEPTH of the invoking environment', async () => {
    const box = makeSandbox();
    box.writeConfig([emitHook(box, 'gate', 'tool.pre_call', '{}')]);
    const fire = (depth: string | undefined, session: string) =>
      box.cli(['hooks', 'fire', 'tool.pre_call', '--session', session], {
        input: '{}',
        env: { ...box.env, HOOKCTL_DISPATCH_DEPTH: depth },
      });
    const [atThree, atFour, garbage] = await Promise.all([fire('2', 'd3'), fire('3', 'd4'), fire('many', 'dx')]);
    expect(atThree.code, atThree.stderr).toBe(0);
    expect(box.records('d3').map((r) => r.dispatch_depth)).toEqual([3]);
    expect(atFour.code).toBe(3);
    expect(atFour.stdout).toMatch(/verdict\s+failed/);
    expect(atFour.stdout).toContain(DEPTH_ERROR('tool.pre_call'));
    expect(existsSync(box.logFile('d4'))).toBe(false);
    expect(garbage.code, garbage.stderr).toBe(0); // not a count: counts as unset
    expect(box.records('dx').map((r) => r.dispatch_depth)).toEqual([1]);
  });
});
