// `npm pack` of a fresh clone, installed into a temporary prefix and run from another folder: what
// a user who installs the package gets (issue 16). A clone, not the working tree: dist/ and
// oclif.manifest.json are ignored by git, so only a build on pack (`prepack`) can put them in the
// tarball. The clone is of the committed HEAD, as CI checks it out.
//
// Offline: the clone shares this checkout's node_modules through a link (the build needs only the
// dev tools already there), and the install is npm's layout of a global install, made without the
// registry: the tarball unpacked into <prefix>/lib/node_modules/hookctl, its production
// dependencies installed there by `npm ci --omit=dev --offline` from the lock file (the tarballs
// are in the npm cache after any `npm ci`), and <prefix>/bin/hookctl a link to its bin. A real
// `npm install -g --offline` cannot run here: it resolves every dependency from registry metadata,
// which `npm ci` never caches (ENOTCACHED). Production dependencies only, so a runtime require of
// a devDependency fails this test.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const inGit = spawnSync('git', ['-C', repoRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
const head = inGit.status === 0 ? inGit.stdout.trim() : undefined;

let scratch: string;
let installed: string; // <prefix>/lib/node_modules/hookctl
let hookctl: string; // <prefix>/bin/hookctl
let tarballFiles: string[];
let installOutput: string; // what `npm ci` of the production dependencies printed

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: npmEnv(),
  });
}

/** npm_config_* of an enclosing `npm test` would change what these npm runs do. */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
}

describe.skipIf(head === undefined)('npm pack of a fresh clone, installed into a prefix', { timeout: 180_000 }, () => {
  beforeAll(() => {
    scratch = tempDir('hookctl-pack-');
    const clone = join(scratch, 'clone');
    sh('git', ['clone', '--quiet', '--no-checkout', repoRoot, clone], scratch);
    sh('git', ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', head!], clone);
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
    sh('npm', ['pack', '--silent', '--pack-destination', scratch], clone); // runs prepack: the build
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    tarballFiles = sh('tar', ['tzf', join(scratch, tarball!)], scratch)
      .trim()
      .split('\n');

    const prefix = join(scratch, 'prefix');
    mkdirSync(join(prefix, 'lib', 'node_modules'), { recursive: true });
    mkdirSync(join(prefix, 'bin'));
    sh('tar', ['xzf', join(scratch, tarball!), '-C', join(prefix, 'lib', 'node_modules')], scratch);
    installed = join(prefix, 'lib', 'node_modules', 'hookctl');
    renameSync(join(prefix, 'lib', 'node_modules', 'package'), installed);
    copyFileSync(join(clone, 'package-lock.json'), join(installed, 'package-lock.json'));
    // Not --silent and not --ignore-scripts: what npm warns about while installing is checked below.
    const ci = spawnSync('npm', ['ci', '--omit=dev', '--offline', '--no-audit', '--no-fund', '--loglevel=warn'], {
      cwd: installed,
      encoding: 'utf8',
      env: npmEnv(),
    });
    expect(ci.status, ci.stderr).toBe(0);
    installOutput = ci.stdout + ci.stderr;
    hookctl = join(prefix, 'bin', 'hookctl');
    symlinkSync(join('..', 'lib', 'node_modules', 'hookctl', 'bin', 'run.js'), hookctl);
  }, 180_000);

  it('ships the build, the manifest, the license and the bundled skills folder', () => {
    const files = tarballFiles.map((f) => f.replace(/^package\//, ''));
    for (const f of ['dist/cli/run.js', 'dist/cli/boot.js', 'oclif.manifest.json', 'LICENSE', 'skills/README.md'])
      expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('dist/commands/hooks/'))).toBe(true);
    // nothing of the development tree
    expect(files.some((f) => /^(src|test|fixtures|bench|node_modules)\//.test(f))).toBe(false);
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('installs without an install-script warning: no dependency has an install script, tree-sitter-bash is not one', () => {
    expect(installOutput).not.toMatch(/install.?script/i);
    const withScripts: string[] = [];
    const visit = (folder: string) => {
      for (const name of existsSync(folder) ? readdirSync(folder) : []) {
        if (name.startsWith('@')) {
          visit(join(folder, name));
          continue;
        }
        const manifest = join(folder, name, 'package.json');
        if (!existsSync(manifest)) continue;
        const scripts = (JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> }).scripts;
        if (['preinstall', 'install', 'postinstall'].some((s) => scripts?.[s] !== undefined)) withScripts.push(name);
        visit(join(folder, name, 'node_modules'));
      }
    };
    visit(join(installed, 'node_modules'));
    expect(withScripts).toEqual([]);
    expect(existsSync(join(installed, 'node_modules', 'tree-sitter-bash'))).toBe(false);
  });

  it("parses Bash `if` rules with the grammar it ships (dist/tree-sitter-bash.wasm, the devDependency's file)", () => {
    expect(readFileSync(join(installed, 'dist', 'tree-sitter-bash.wasm'))).toEqual(
      readFileSync(join(repoRoot, 'node_modules', 'tree-sitter-bash', 'tree-sitter-bash.wasm')),
    );
    const work = join(scratch, 'claude-project');
    mkdirSync(join(work, '.claude'), { recursive: true });
    const hook = (rule: string) => ({ type: 'command', command: 'exit 0', if: rule });
    writeFileSync(
      join(work, '.claude', 'settings.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook('Bash(rm *)'), hook('Bash(git push *)')] }] },
      }),
    );
    const env: Record<string, string> = {
      ...isolatedEnv({ home: join(scratch, 'claude-home') }),
      NODE_COMPILE_CACHE: join(scratch, 'cache'),
    };
    // Without the grammar both rules would fail open and both hooks run; parsed, only one matches.
    const payload = { session_id: 's', tool_name: 'Bash', tool_input: { command: 'cd x && git push origin' } };
    const fire = spawnSync(hookctl, ['hooks', 'fire', 'PreToolUse', '-o', 'json', '--workspace', work], {
      cwd: work,
      env,
      encoding: 'utf8',
      input: JSON.stringify(payload),
    });
    expect(fire.status, fire.stderr).toBe(0);
    const out = JSON.parse(fire.stdout) as { runs: { hook_name: string }[] };
    expect(out.runs.map((r) => r.hook_name)).toEqual(['project:PreToolUse:1.2']);
  });

  it('runs hooks list, validate and fire from another folder', () => {
    const work = join(scratch, 'elsewhere');
    mkdirSync(join(work, '.compozy'), { recursive: true });
    const marker = join(work, 'ran.txt');
    writeFileSync(
      join(work, '.compozy', 'config.toml'),
      [
        '[[hooks.declarations]]',
        'name = "installed-probe"',
        'event = "tool.pre_call"',
        'mode = "sync"',
        'command = "/bin/sh"',
        `args = ["-c", "cat > '${marker}'; printf '{}'"]`,
        '',
      ].join('\n'),
    );
    const env: Record<string, string> = {
      ...isolatedEnv({ home: join(scratch, 'home') }),
      NODE_COMPILE_CACHE: join(scratch, 'cache'),
    };
    const run = (...args: string[]) => spawnSync(hookctl, args, { cwd: work, env, encoding: 'utf8', input: '' });

    const list = run('hooks', 'list', '-o', 'json');
    expect(list.status, list.stderr).toBe(0);
    expect(list.stderr).toBe('');
    expect(JSON.parse(list.stdout).map((h: { name: string }) => h.name)).toEqual(['installed-probe']);

    const validate = run('hooks', 'validate');
    expect(validate.status, validate.stdout + validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/0 errors/);

    const fire = spawnSync(hookctl, ['hooks', 'fire', 'tool.pre_call', '--session', 'installed', '-o', 'json'], {
      cwd: work,
      env,
      encoding: 'utf8',
      input: '{"tool_id":"shell"}',
    });
    expect(fire.status, fire.stderr).toBe(0);
    const out = JSON.parse(fire.stdout) as { verdict: string; runs: { hook_name: string; outcome: string }[] };
    expect(out.verdict).toBe('completed');
    expect(out.runs.map((r) => [r.hook_name, r.outcome])).toEqual([['installed-probe', 'applied']]);
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({ tool_id: 'shell' });
    expect(existsSync(join(env.COMPOZY_HOME, 'sessions', 'installed', 'hook-runs.jsonl'))).toBe(true);
  });

  it('every help example runs as written in a project folder (exit 0 or 1, never a usage error)', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, { examples?: string[] }>;
    };
    const project = join(scratch, 'project');
    mkdirSync(join(project, '.compozy'), { recursive: true });
    writeFileSync(join(project, '.compozy', 'config.toml'), '');
    writeFileSync(join(project, 'payload.json'), '{"prompt":"hi"}\n');
    const env: Record<string, string> = {
      ...isolatedEnv({ home: join(scratch, 'examples-home') }),
      PATH: `${join(scratch, 'prefix', 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      NODE_COMPILE_CACHE: join(scratch, 'cache'),
    };
    // `hooks replay` with no transcript exits 2: the project has one, as Claude Code names its
    // folder (every character but letters and digits a '-'), and an event file.
    const realProject = realpathSync(project);
    const transcripts = join(env.HOME!, '.claude', 'projects', realProject.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(transcripts, { recursive: true });
    const entry = { type: 'user', sessionId: 's1', cwd: realProject, timestamp: '2026-12-01T10:00:00.000Z' };
    writeFileSync(
      join(transcripts, 's1.jsonl'),
      JSON.stringify({ ...entry, uuid: 'u1', message: { role: 'user', content: 'hi' } }) + '\n',
    );
    writeFileSync(join(project, 'events.jsonl'), JSON.stringify({ event: 'tool.pre_call', payload: {} }) + '\n');
    // `hooks test` with no test file or no case selected exits 2 (issue 28): the project has one.
    mkdirSync(join(project, 'tests'));
    writeFileSync(
      join(project, 'tests', 'guard.hooktest.yaml'),
      'cases:\n  - name: blocks .env edits\n    event: tool.pre_call\n    payload: { tool_id: edit }\n',
    );
    const examples = Object.keys(manifest.commands)
      .sort()
      .flatMap((id) => manifest.commands[id]!.examples ?? []);
    expect(examples.length).toBeGreaterThan(20);
    for (const example of examples) {
      const line = example.replaceAll('<%= config.bin %>', 'hookctl');
      const r = spawnSync('/bin/sh', ['-c', line], { cwd: project, env, encoding: 'utf8', input: '' });
      expect([0, 1], `${line}\n${r.stdout}${r.stderr}`).toContain(r.status);
      expect(r.stderr, line).not.toMatch(/^\s+at /m);
    }
  });
});
