// Runs belong to a project (SPEC §9, issue 22): the history queries keep the records of the
// current workspace, compare workspaces by real path, and count the older records that carry
// none, over real session folders.
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { followRuns, newestRuns, queryRuns, runStats } from '../../src/app/run-history.js';
import type { RunRecord } from '../../src/ledger/record.js';
import { listSessions } from '../../src/ledger/sessions.js';
import { workspaceScope } from '../../src/ledger/workspace-scope.js';
import { serializeRecord } from '../../src/ledger/writer.js';
import { tempDir } from '../support/temp.js';
import { until } from '../support/until.js';

let dir: string;
let projA: string;
let projB: string;
const BASE_MS = Date.parse('2026-11-29T21:00:00.000Z');
const folders = () => [
  { dialect: 'compozy', dir: join(dir, 'compozy') },
  { dialect: 'claude', dir: join(dir, 'claude') },
];

/** A record of `workspace` (undefined: an older record, written before the field existed). */
function rec(session: string, t: number, workspace: string | undefined, over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: `${session}-${t}`,
    dispatch_id: `d-${session}-${t}`,
    session_id: session,
    dialect: 'claude',
    event: 'PreToolUse',
    hook_name: 'project:PreToolUse:1.1', // the same name in every project
    source: 'claude_project',
    mode: 'sync',
    priority: null,
    required: false,
    outcome: 'applied',
    duration_ms: t,
    dispatch_depth: 1,
    ...(workspace === undefined ? {} : { workspace, declared_in: join(workspace, '.claude', 'settings.json') }),
    recorded_at: new Date(BASE_MS + t * 1000).toISOString(),
    ...over,
  };
}

function log(dialect: string, session: string, records: RunRecord[]): void {
  const file = join(dir, dialect, session, 'hook-runs.jsonl');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, records.map(serializeRecord).join(''));
  const last = new Date(Date.parse(records.at(-1)!.recorded_at) + 1);
  utimesSync(file, last, last);
}

beforeEach(() => {
  dir = tempDir('hookctl-history-ws-');
  projA = join(dir, 'a');
  projB = join(dir, 'b');
  mkdirSync(projA);
  mkdirSync(projB);
  log('claude', 'old', [rec('old', 1, undefined), rec('old', 2, undefined, { outcome: 'failed' })]);
  log('claude', 'sa', [rec('sa', 10, projA), rec('sa', 11, projA, { outcome: 'denied' })]);
  log('claude', 'sb', [rec('sb', 20, projB), rec('sb', 21, projB), rec('sb', 22, projB)]); // the newest session
});

const ids = (records: readonly RunRecord[]) => records.map((r) => r.run_id);

describe('workspaceScope', () => {
  it('keeps records of the same workspace, by path or by real path, and counts those without one', () => {
    const link = join(dir, 'link-to-a');
    symlinkSync(projA, link);
    const scope = workspaceScope(link);
    expect(scope.keeps(rec('x', 1, projA))).toBe(true);
    expect(scope.keeps(rec('x', 2, link))).toBe(true);
    expect(scope.keeps(rec('x', 3, projB))).toBe(false);
    expect(scope.keeps(rec('x', 4, join(dir, 'gone')))).toBe(false);
    expect(scope.withoutWorkspace).toBe(0);
    expect(scope.keeps(rec('x', 5, undefined))).toBe(false);
    const quiet = scope.quiet();
    expect(quiet.keeps(rec('x', 6, undefined))).toBe(false);
    expect([scope.withoutWorkspace, quiet.withoutWorkspace]).toEqual([1, 1]);
  });
});

describe('the history of one workspace', () => {
  it('runs: the default session is the newest one holding a record of the workspace', () => {
    const a = queryRuns(folders(), { workspace: workspaceScope(projA) });
    expect(a.session).toBe('sa');
    expect(ids(a.records)).toEqual(['sa-10', 'sa-11']);
    expect(a.withoutWorkspace).toBe(0);
    // Without a scope (--all-workspaces) the newest session of any workspace.
    expect(queryRuns(folders(), {}).session).toBe('sb');
  });

  it('runs --all-sessions: only the workspace records, the older ones without a workspace counted', () => {
    const a = queryRuns(folders(), { allSessions: true, workspace: workspaceScope(projA) });
    expect(ids(a.records)).toEqual(['sa-10', 'sa-11']);
    expect(a.withoutWorkspace).toBe(2);
    const all = queryRuns(folders(), { allSessions: true });
    expect(ids(all.records)).toEqual(['old-1', 'old-2', 'sa-10', 'sa-11', 'sb-20', 'sb-21', 'sb-22']);
    expect(all.withoutWorkspace).toBe(0);
    // Counted after the other filters: only the failed one matches --outcome failed.
    const failed = queryRuns(folders(), { allSessions: true, outcome: 'failed', workspace: workspaceScope(projA) });
    expect([failed.records, failed.withoutWorkspace]).toEqual([[], 1]);
  });

  it('a workspace with no runs of its own still hears of the older records', () => {
    const none = join(dir, 'c');
    mkdirSync(none);
    const r = queryRuns(folders(), { workspace: workspaceScope(none) });
    expect([r.session, r.records, r.withoutWorkspace]).toEqual([undefined, [], 2]);
  });

  it('runs --stats does not merge two projects that share a hook name', () => {
    const a = runStats(folders(), { allSessions: true, workspace: workspaceScope(projA) });
    expect(a.rows.map((r) => [r.hook_name, r.runs])).toEqual([['project:PreToolUse:1.1', 2]]);
    expect(a.withoutWorkspace).toBe(2);
    expect(runStats(folders(), { allSessions: true }).rows.map((r) => r.runs)).toEqual([7]);
    expect(runStats(folders(), { workspace: workspaceScope(projB) }).rows.map((r) => r.runs)).toEqual([3]);
  });

  it('info NAME: the newest runs of the name in this workspace only', () => {
    const scope = workspaceScope(projA);
    expect(ids(newestRuns(folders(), { hook: 'project:PreToolUse:1.1', workspace: scope }, 10))).toEqual([
      'sa-11',
      'sa-10',
    ]);
    expect(scope.withoutWorkspace).toBe(2);
    expect(ids(newestRuns(folders(), { hook: 'project:PreToolUse:1.1' }, 3))).toEqual(['sb-22', 'sb-21', 'sb-20']);
  });

  it('sessions: only those with a record of the workspace, counting only those records', () => {
    const a = listSessions(folders(), { workspace: workspaceScope(projA) });
    expect(a.sessions.map((s) => [s.session_id, s.runs])).toEqual([['sa', 2]]);
    expect(a.withoutWorkspace).toBe(2);
    const last = listSessions(folders(), { last: 1, workspace: workspaceScope(projA) });
    expect(last.sessions.map((s) => s.session_id)).toEqual(['sa']);
    const all = listSessions(folders(), {});
    expect(all.sessions.map((s) => s.session_id)).toEqual(['sb', 'sa', 'old']);
    expect(all.withoutWorkspace).toBe(0);
  });

  it('runs --follow: the workspace session, and the count once the records there are printed', async () => {
    const seen: string[] = [];
    const counts: number[] = [];
    const ac = new AbortController();
    const done = followRuns(
      folders(),
      { allSessions: true, workspace: workspaceScope(projA) },
      {
        onRecord: (r) => seen.push(r.run_id),
        onCaughtUp: (n) => counts.push(n),
        signal: ac.signal,
        pollMs: 10,
      },
    );
    await until('the first catch-up', () => counts.length > 0, 5000);
    expect(seen).toEqual(['sa-10', 'sa-11']);
    expect(counts).toEqual([2]);
    ac.abort();
    await done;
  });

  it('runs --follow waits for the first session of a workspace, reading the logs of others once', async () => {
    const projC = join(dir, 'c');
    mkdirSync(projC);
    const scope = workspaceScope(projC);
    const seen: string[] = [];
    const ac = new AbortController();
    const done = followRuns(
      folders(),
      { workspace: scope },
      { onRecord: (r) => seen.push(r.run_id), signal: ac.signal, pollMs: 10 },
    );
    // Every log was read once, found without a record of projC, and is remembered at its size.
    await until('scope.logsWithout.size === 3', () => scope.logsWithout.size === 3, 5000);
    log('claude', 'sc', [rec('sc', 30, projC)]);
    await until('seen.length === 1', () => seen.length === 1, 5000);
    expect(seen).toEqual(['sc-30']);
    ac.abort();
    await done;
  });
});
