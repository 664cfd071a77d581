// Runs over sessions (SPEC §9): --all-sessions, --dispatch, --last across sessions, --stats
// filters, and info's newest runs, over real session folders of several dialects.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { followRuns, newestRuns, queryRuns, runStats, selectSessions } from '../../src/app/run-history.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { serializeRecord } from '../../src/ledger/writer.js';
import { tempDir } from '../support/temp.js';
import { until } from '../support/until.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('hookctl-history-');
});

const BASE_MS = Date.parse('2026-11-29T21:00:00.000Z');
const folders = () => [
  { dialect: 'compozy', dir: join(dir, 'compozy') },
  { dialect: 'cosh', dir: join(dir, 'cosh') },
  { dialect: 'claude', dir: join(dir, 'claude') },
];

function rec(session: string, t: number, over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: `${session}-${t}`,
    dispatch_id: `d-${session}-${Math.floor(t / 10)}`,
    session_id: session,
    dialect: 'compozy',
    event: 'tool.pre_call',
    hook_name: 'guard',
    source: 'config',
    mode: 'sync',
    priority: 500,
    required: false,
    outcome: 'applied',
    duration_ms: t,
    dispatch_depth: 1,
    recorded_at: new Date(BASE_MS + t * 1000).toISOString(),
    ...over,
  };
}

/** A session log whose mtime is its last record's time (as a real writer leaves it). */
function log(dialect: string, session: string, records: RunRecord[]): void {
  const file = join(dir, dialect, session, 'hook-runs.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, records.map(serializeRecord).join(''));
  const last = new Date(Date.parse(records.at(-1)!.recorded_at) + 1);
  utimesSync(file, last, last);
}

beforeEach(() => {
  log('compozy', 'old', [rec('old', 1), rec('old', 2, { outcome: 'failed' })]);
  log('cosh', 'mid', [
    rec('mid', 10, { dialect: 'cosh', event: 'PreToolUse' }),
    rec('mid', 12, { dialect: 'cosh', event: 'PreToolUse' }),
  ]);
  log('compozy', 'mid', [rec('mid', 11), rec('mid', 13, { hook_name: 'audit' })]); // same id, another dialect
  log('claude', 'new', [
    rec('new', 20, { dialect: 'claude', event: 'PreToolUse' }),
    rec('new', 21, { dialect: 'claude', event: 'PreToolUse', outcome: 'denied' }),
  ]);
});

describe('selecting sessions', () => {
  it('reads the most recently written session by default, and every session newest last with --all-sessions', () => {
    expect(selectSessions(folders(), {}).map((s) => s.session_id)).toEqual(['new']);
    expect(selectSessions(folders(), { allSessions: true }).map((s) => s.session_id)).toEqual(['old', 'mid', 'new']);
    expect(selectSessions(folders(), { allSessions: true, dialect: 'compozy' }).map((s) => s.session_id)).toEqual([
      'old',
      'mid',
    ]);
  });

  it('--all-sessions lists records session by session, each session merged across dialects in time order', () => {
    const { records, session } = queryRuns(folders(), { allSessions: true });
    expect(session).toBeUndefined();
    expect(records.map((r) => r.run_id)).toEqual([
      'old-1',
      'old-2',
      'mid-10',
      'mid-11',
      'mid-12',
      'mid-13',
      'new-20',
      'new-21',
    ]);
  });

  it('--last N across sessions takes the newest N overall, oldest first', () => {
    expect(queryRuns(folders(), { allSessions: true, last: 3 }).records.map((r) => r.run_id)).toEqual([
      'mid-13',
      'new-20',
      'new-21',
    ]);
    expect(queryRuns(folders(), { allSessions: true, last: 3, hook: 'guard' }).records.map((r) => r.run_id)).toEqual([
      'mid-12',
      'new-20',
      'new-21',
    ]);
    expect(queryRuns(folders(), { allSessions: true, last: 100 }).records).toHaveLength(8);
  });

  it('--dispatch without --session finds the session holding it', () => {
    const r = queryRuns(folders(), { dispatch: 'd-mid-1' });
    expect(r.session).toBe('mid');
    expect(r.records.map((x) => x.run_id)).toEqual(['mid-10', 'mid-11', 'mid-12', 'mid-13']);
    expect(queryRuns(folders(), { dispatch: 'd-old-0' }).records.map((x) => x.run_id)).toEqual(['old-1', 'old-2']);
    expect(queryRuns(folders(), { dispatch: 'nope' }).records).toEqual([]);
    // with --session, only that session is looked in
    expect(queryRuns(folders(), { dispatch: 'd-old-0', session: 'new' }).records).toEqual([]);
  });
});

describe('runStats', () => {
  it('applies every runs filter', () => {
    const all = runStats(folders(), { allSessions: true }).rows;
    expect(all.map((r) => [r.hook_name, r.event, r.dialect, r.runs])).toEqual([
      ['audit', 'tool.pre_call', 'compozy', 1],
      ['guard', 'PreToolUse', 'claude', 2],
      ['guard', 'PreToolUse', 'cosh', 2],
      ['guard', 'tool.pre_call', 'compozy', 3],
    ]);
    expect(all[3]).toMatchObject({ outcomes: { applied: 2, failed: 1 }, p50_ms: 2, max_ms: 11 });
    expect(runStats(folders(), {}).rows.map((r) => r.dialect)).toEqual(['claude']); // the default session
    expect(runStats(folders(), { allSessions: true, event: 'Pre*', outcome: 'denied' }).rows).toMatchObject([
      { dialect: 'claude', runs: 1, outcomes: { denied: 1 } },
    ]);
    expect(
      runStats(folders(), { allSessions: true, since: new Date(BASE_MS + 12_000) }).rows.map((r) => r.runs),
    ).toEqual([1, 2, 1]);
    expect(runStats(folders(), { allSessions: true, last: 2 }).rows.map((r) => r.runs)).toEqual([2]);
    expect(runStats(folders(), { dispatch: 'd-old-0' }).rows).toMatchObject([{ runs: 2, dialect: 'compozy' }]);
  });
});

describe('newestRuns (info NAME)', () => {
  it('returns the newest runs of a hook across every session, newest first', () => {
    expect(newestRuns(folders(), { hook: 'guard' }, 3).map((r) => r.run_id)).toEqual(['new-21', 'new-20', 'mid-12']);
    expect(newestRuns(folders(), { hook: 'guard', dialect: 'cosh' }, 10).map((r) => r.run_id)).toEqual([
      'mid-12',
      'mid-10',
    ]);
  });
});

describe('followRuns', () => {
  it('--all-sessions picks up a session that appears while following', async () => {
    const seen: string[] = [];
    const ac = new AbortController();
    const done = followRuns(
      folders(),
      { allSessions: true, last: 1 },
      { onRecord: (r) => seen.push(r.run_id), signal: ac.signal, pollMs: 10 },
    );
    await until('seen.length === 1', () => seen.length === 1, 5000);
    expect(seen).toEqual(['new-21']);
    log('cosh', 'fresh', [rec('fresh', 30, { dialect: 'cosh' })]);
    await until('seen.length === 2', () => seen.length === 2, 5000);
    expect(seen[1]).toBe('fresh-30');
    ac.abort();
    await done;
  });

  it('a --session that has no log yet is waited for, in every dialect', async () => {
    const seen: string[] = [];
    const ac = new AbortController();
    let caughtUp = false;
    const done = followRuns(
      folders(),
      { session: 'later' },
      { onRecord: (r) => seen.push(r.run_id), onCaughtUp: () => (caughtUp = true), signal: ac.signal, pollMs: 10 },
    );
    // the log is written only once the follower watches for it, so it must find it later
    await until('caught up', () => caughtUp, 5000);
    log('claude', 'later', [rec('later', 40, { dialect: 'claude' })]);
    await until('seen.length === 1', () => seen.length === 1, 5000);
    expect(seen).toEqual(['later-40']);
    ac.abort();
    await done;
  });
});

describe('every dialect of the registry', () => {
  it('lists, reads and counts the sessions of a dialect added to the registry, with no other change', async () => {
    const { registerDialect } = await import('../../src/dialects/registry.js');
    const { sessionsFolders, lastRunsOfHook } = await import('../../src/app/runs.js');
    const { sessions } = await import('../../src/app/sessions.js');
    const fakeDir = join(dir, 'fake-state', 'sessions');
    const fake = {
      name: 'fake',
      sessionsDir: () => fakeDir,
    } as unknown as import('../../src/dialects/types.js').Dialect;
    const unregister = registerDialect(fake);
    try {
      const file = join(fakeDir, 'f1', 'hook-runs.jsonl');
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, serializeRecord(rec('f1', 50, { dialect: 'fake', hook_name: 'plug' })));
      const { resolveLocations } = await import('../../src/paths.js');
      const loc = resolveLocations({
        env: { HOME: dir, COMPOZY_HOME: join(dir, 'compozy'), COSH_HOME: join(dir, 'cosh') },
        packageRoot: dir,
        cwd: dir,
      });
      expect(sessionsFolders(loc).map((f) => f.dialect)).toContain('fake');
      expect(sessions(loc, { dialect: 'fake', allWorkspaces: true }).sessions).toMatchObject([
        { session_id: 'f1', dialect: 'fake', runs: 1 },
      ]);
      expect(lastRunsOfHook(loc, 'plug', 10, { dialects: ['fake'] }).runs.map((r) => r.run_id)).toEqual(['f1-50']);
    } finally {
      unregister();
    }
  });
});

describe('a --session that names no log (SPEC §7.1)', () => {
  it('is an error for runs, stats and export, exit 1', () => {
    for (const call of [
      () => queryRuns(folders(), { session: 'typo' }),
      () => runStats(folders(), { session: 'typo' }),
    ]) {
      try {
        call();
        expect.unreachable();
      } catch (err) {
        expect(err).toMatchObject({
          code: 'session_not_found',
          message: 'no runs recorded for session "typo" (see: hookctl hooks sessions)',
          exit: 1,
        });
      }
    }
    // a session that one dialect has is fine, even filtered to another dialect
    expect(queryRuns(folders(), { session: 'mid', dialect: 'claude' }).records).toEqual([]);
  });
});
