// Async hooks through `hooks fire` (SPEC §3.1 step 3, §3.2): copies of the sync-patched payload,
// 4 workers and a queue of 64, `dropped` beyond it, at most 10 s of drain, then running hooks
// killed (`hook canceled`) and queued ones dropped. Built CLI, real hook scripts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  emitHook,
  makeSandbox,
  removeSandboxes,
  parseJson,
  processIsDead,
  readPid,
  type Decl,
  type FireJson,
} from './fire-support.js';

afterAll(removeSandboxes);

const WORKERS = 4;
const QUEUE = 64;
const DRAIN_MS = 10_000;

describe.concurrent('hooks fire: async hooks', () => {
  it('gives async hooks a copy of the sync-patched payload and never applies their patches', async () => {
    const box = makeSandbox();
    const seen = join(box.out, 'async-seen.json');
    box.writeConfig([
      emitHook(box, 'namer', 'session.post_create', '{"session_name":"from-sync"}'),
      emitHook(box, 'observer', 'session.post_create', '{"session_name":"from-async"}', {
        mode: 'async',
        env: { SEEN_FILE: seen },
      }),
    ]);
    const res = await box.cli(['hooks', 'fire', 'session.post_create', '-o', 'json', '--session', 'copy'], {
      input: '{"session_name":"original"}',
    });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    expect(out).toMatchObject({ verdict: 'completed', async_queued: 1 });
    expect(JSON.parse(readFileSync(seen, 'utf8')).session_name).toBe('from-sync');
    expect(out.payload.session_name).toBe('from-sync');
    expect(out.runs.map((r) => [r.hook_name, r.mode, r.outcome])).toEqual([
      ['namer', 'sync', 'applied'],
      ['observer', 'async', 'applied'],
    ]);
    expect(box.records('copy')).toHaveLength(2);
  });

  it(`drops what neither the ${WORKERS} workers nor the queue of ${QUEUE} can take`, async () => {
    const box = makeSandbox();
    const total = 70;
    const decls: Decl[] = Array.from({ length: total }, (_, i) => ({
      name: `async-${String(i).padStart(2, '0')}`,
      event: 'session.post_create',
      mode: 'async',
      command: box.hook('sleep.sh'),
      args: ['0.2'],
    }));
    box.writeConfig(decls);
    const res = await box.cli(['hooks', 'fire', 'session.post_create', '-o', 'json', '--session', 'flood'], {
      input: '{}',
      timeoutMs: 30_000,
    });
    expect(res.code, res.stderr).toBe(0);
    const out = parseJson<FireJson>(res.stdout);
    const dropped = out.runs.filter((r) => r.outcome === 'dropped');
    expect(dropped).toHaveLength(total - WORKERS - QUEUE);
    // Queued in dispatch order (name order here): the last ones are the ones that find no room.
    expect(dropped.map((r) => r.hook_name)).toEqual(['async-68', 'async-69']);
    for (const r of dropped) {
      expect(r).toMatchObject({ error: 'hooks: async hook submission dropped', duration_ms: 0 });
      expect(r.exit_code).toBeNull();
    }
    expect(out.async_queued).toBe(WORKERS + QUEUE);
    expect(out.runs.filter((r) => r.outcome === 'applied')).toHaveLength(WORKERS + QUEUE);
    const logged = box.records('flood');
    expect(logged).toHaveLength(total);
    expect(new Set(logged.map((r) => r.hook_name)).size).toBe(total); // each recorded once
  });

  it('drains for at most 10 s, then kills running hooks ("hook canceled") and drops queued ones', async () => {
    const box = makeSandbox();
    const pid = (i: number) => join(box.out, `slow-${i}.pid`);
    box.writeConfig(
      Array.from({ length: WORKERS + 1 }, (_, i) => ({
        name: `slow-${i}`,
        event: 'session.post_create',
        mode: 'async' as const,
        timeout: '60s',
        command: box.hook('sleep.sh'),
        args: ['30', pid(i)],
      })),
    );
    const res = await box.cli(['hooks', 'fire', 'session.post_create', '-o', 'json', '--session', 'drain'], {
      input: '{}',
      timeoutMs: 40_000,
    });
    expect(res.code, res.stderr).toBe(0);
    // 10 s of drain, up to 1 s for the kill to land, and the CLI's own start on a busy machine.
    expect(res.ms).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(res.ms).toBeLessThan(DRAIN_MS + 1000 + 8000);
    const out = parseJson<FireJson>(res.stdout);
    expect(out.verdict).toBe('completed');
    const byName = Object.fromEntries(out.runs.map((r) => [r.hook_name, r]));
    for (let i = 0; i < WORKERS; i++) {
      expect(byName[`slow-${i}`]).toMatchObject({ outcome: 'failed', error: 'hook canceled', mode: 'async' });
      expect(byName[`slow-${i}`]!.duration_ms).toBeGreaterThanOrEqual(DRAIN_MS - 100);
      expect(byName[`slow-${i}`]!.duration_ms).toBeLessThan(DRAIN_MS + 1500);
      expect(byName[`slow-${i}`]!.timed_out).not.toBe(true);
      expect(processIsDead(readPid(pid(i)))).toBe(true);
    }
    expect(byName[`slow-${WORKERS}`]).toMatchObject({
      outcome: 'dropped',
      error: 'hooks: async hook dropped: the queue was not drained in time',
    });
    expect(existsSync(pid(WORKERS))).toBe(false); // never started
    expect(
      box
        .records('drain')
        .map((r) => r.outcome)
        .sort(),
    ).toEqual(['dropped', 'failed', 'failed', 'failed', 'failed']);
  });
});
