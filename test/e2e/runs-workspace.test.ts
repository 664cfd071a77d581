// History belongs to a project (issue 22, SPEC §5 and §9): every record carries the workspace it
// was fired in and the file that declared its hook; `info`, `runs`, `runs --stats` and
// `sessions` show the current workspace's runs unless --all-workspaces, say which in their human
// output, and count the older records that carry no workspace. Two Claude projects share one
// state folder, and their hooks share the name `project:PreToolUse:1.1`, as in real life.
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { bash, cmd, group, sandbox, type Sandbox } from './claude-support.js';

const HOOK = 'project:PreToolUse:1.1';
let sb: Sandbox;
let projA: string;
let projB: string;

const cli = (workspace: string, args: string[]) => runCli([...args, '--workspace', workspace], { env: sb.env });
const json = async <T>(workspace: string, args: string[]): Promise<{ doc: T; stderr: string }> => {
  const r = await cli(workspace, [...args, '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return { doc: JSON.parse(r.stdout) as T, stderr: r.stderr };
};
const fire = async (workspace: string, session: string) => {
  const r = await runCli(
    ['hooks', 'fire', 'PreToolUse', '--dialect', 'claude', '--session', session, '--workspace', workspace],
    { env: sb.env, input: JSON.stringify(bash('ls')) },
  );
  expect(r.code, r.stderr).toBe(0);
};
type Rec = Record<string, unknown>;
const OLDER_NOTE = '1 older record without a workspace is not shown; --all-workspaces shows them';

beforeAll(async () => {
  sb = sandbox();
  projA = sb.workspace;
  sb.settings({ PreToolUse: [group([cmd(sb.script('ok.sh', 'exit 0'))], 'Bash')] });
  projB = join(sb.root, 'project-b');
  mkdirSync(projB);
  cpSync(join(projA, '.claude'), join(projB, '.claude'), { recursive: true });
  // A record written before records carried a workspace.
  const old = join(sb.root, 'state', 'claude', 'sessions', 'old', 'hook-runs.jsonl');
  mkdirSync(join(old, '..'), { recursive: true });
  writeFileSync(
    old,
    JSON.stringify({
      run_id: 'old-1',
      dispatch_id: 'd-old',
      session_id: 'old',
      dialect: 'claude',
      event: 'PreToolUse',
      hook_name: HOOK,
      source: 'claude_project',
      mode: 'sync',
      priority: null,
      required: false,
      outcome: 'applied',
      duration_ms: 1,
      dispatch_depth: 1,
      recorded_at: '2026-01-01T00:00:00.000Z',
    }) + '\n',
  );
  await fire(projA, 'sa');
  await fire(projA, 'sa');
  await fire(projB, 'sb'); // the newest session is B's
}, 120_000);

describe('history belongs to a project', { timeout: 120_000 }, () => {
  it('records carry the workspace they were fired in and the file that declared the hook', () => {
    for (const [session, project] of [
      ['sa', projA],
      ['sb', projB],
    ] as const) {
      for (const r of sb.records(session)) {
        expect(r).toMatchObject({
          hook_name: HOOK,
          workspace: project,
          declared_in: join(project, '.claude', 'settings.json'),
          skill_source: null,
          error: null,
        });
      }
    }
  });

  it('info NAME shows the runs of this workspace; --all-workspaces every run, the older one included', async () => {
    const a = await json<{ runs: Rec[]; runs_workspace: string | null; runs_without_workspace: number }>(projA, [
      'hooks',
      'info',
      HOOK,
    ]);
    expect(a.doc.runs.map((r) => r.workspace)).toEqual([projA, projA]);
    expect([a.doc.runs_workspace, a.doc.runs_without_workspace]).toEqual([projA, 1]);
    const all = await json<{ runs: Rec[]; runs_workspace: string | null }>(projA, [
      'hooks',
      'info',
      HOOK,
      '--all-workspaces',
    ]);
    expect(all.doc.runs.map((r) => r.workspace ?? 'none')).toEqual([projB, projA, projA, 'none']);
    expect(all.doc.runs_workspace).toBeNull();
    const human = await cli(projA, ['hooks', 'info', HOOK]);
    expect(human.stdout).toContain(`workspace ${projA} (--all-workspaces for every workspace)`);
    expect(human.stdout).toContain(OLDER_NOTE);
    expect((await cli(projA, ['hooks', 'info', HOOK, '--all-workspaces'])).stdout).toContain('all workspaces');
  });

  it('runs reads the newest session of this workspace, and only its records across sessions', async () => {
    const latest = await json<Rec[]>(projA, ['hooks', 'runs']);
    expect(latest.doc.map((r) => r.session_id)).toEqual(['sa', 'sa']);
    expect((await json<Rec[]>(projA, ['hooks', 'runs', '--all-workspaces'])).doc.map((r) => r.session_id)).toEqual([
      'sb',
    ]);
    const every = await json<Rec[]>(projA, ['hooks', 'runs', '--all-sessions']);
    expect(every.doc.map((r) => r.workspace)).toEqual([projA, projA]);
    expect(every.stderr).toContain(`hookctl: warning: ${OLDER_NOTE}`); // JSON stays the documented array
    const wide = await json<Rec[]>(projA, ['hooks', 'runs', '--all-sessions', '--all-workspaces']);
    expect(wide.doc.map((r) => r.session_id)).toEqual(['old', 'sa', 'sa', 'sb']);
    expect(wide.stderr).toBe('');
    const human = await cli(projA, ['hooks', 'runs', '--all-sessions']);
    expect(human.stdout).toContain(`workspace ${projA} (--all-workspaces for every workspace)`);
    expect(human.stdout).toContain(OLDER_NOTE);
    expect(human.stderr).toBe('');
    // The same project through a symlink is the same workspace (real paths compared).
    const link = join(sb.root, 'link-to-a');
    symlinkSync(projA, link);
    expect((await json<Rec[]>(link, ['hooks', 'runs', '--all-sessions'])).doc).toHaveLength(2);
  });

  it('runs --stats does not merge the projects', async () => {
    const a = await json<Rec[]>(projA, ['hooks', 'runs', '--stats', '--all-sessions']);
    expect(a.doc.map((r) => [r.hook_name, r.runs])).toEqual([[HOOK, 2]]);
    const b = await json<Rec[]>(projB, ['hooks', 'runs', '--stats', '--all-sessions']);
    expect(b.doc.map((r) => [r.hook_name, r.runs])).toEqual([[HOOK, 1]]);
    const all = await json<Rec[]>(projB, ['hooks', 'runs', '--stats', '--all-sessions', '--all-workspaces']);
    expect(all.doc.map((r) => [r.hook_name, r.runs])).toEqual([[HOOK, 4]]);
    const human = await cli(projB, ['hooks', 'runs', '--stats', '--all-sessions', '--all-workspaces']);
    expect(human.stdout).toContain('all workspaces');
  });

  it('sessions lists the sessions of this workspace; --all-workspaces every session', async () => {
    const a = await json<Rec[]>(projA, ['hooks', 'sessions']);
    expect(a.doc.map((s) => [s.session_id, s.runs])).toEqual([['sa', 2]]);
    expect(a.stderr).toContain(OLDER_NOTE);
    const all = await json<Rec[]>(projA, ['hooks', 'sessions', '--all-workspaces']);
    expect(all.doc.map((s) => s.session_id)).toEqual(['sb', 'sa', 'old']);
    const human = await cli(projB, ['hooks', 'sessions']);
    expect(human.stdout).toMatch(/^sb\s+claude\s+1\s/m);
    expect(human.stdout).not.toMatch(/^sa\s/m);
    expect(human.stdout).toContain(`workspace ${projB} (--all-workspaces for every workspace)`);
  });
});
