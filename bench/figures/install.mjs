// The installed size (issue 22): the package packed from the built tree, installed as
// `npm install -g` lays it out (the tarball under <prefix>/lib/node_modules/hookctl, its
// production dependencies from the lock file), and the folder's bytes counted. Aim ≤ 30 MB.
//
// Quick enough for --smoke: `npm pack --ignore-scripts` packs the dist/ this run already built,
// and `npm ci --prefer-offline` installs from npm's cache (filled by any `npm ci`), reaching
// the registry only for what the cache lacks. The size does not vary between runs: one run.
import { execFileSync } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Apparent bytes (the files' lengths), bytes on disk (allocated blocks), and the file count. */
function measure(folder) {
  let bytes = 0;
  let disk = 0;
  let files = 0;
  const visit = (path) => {
    const st = lstatSync(path);
    bytes += st.size;
    disk += st.blocks * 512;
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else files++;
  };
  visit(folder);
  return { bytes, disk, files };
}

/** The largest entries of node_modules (a scope counted as one), for the detail line. */
function largest(folder, count) {
  const sizes = [];
  for (const name of readdirSync(folder)) {
    if (name.startsWith('.')) continue;
    sizes.push({ name, bytes: measure(join(folder, name)).bytes });
  }
  return sizes.sort((a, b) => b.bytes - a.bytes).slice(0, count);
}

const mb = (bytes) => bytes / 1e6;

export default {
  id: 'install',
  order: 80,
  runs: 1,
  async run(ctx) {
    const scratch = join(ctx.work, 'install');
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    // npm_config_* of an enclosing `npm run bench` would change what these npm runs do.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
    const npm = (args, cwd) =>
      execFileSync('npm', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const tarball = npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', scratch], ctx.root).trim();
      const modules = join(scratch, 'prefix', 'lib', 'node_modules');
      mkdirSync(modules, { recursive: true });
      execFileSync('tar', ['xzf', join(scratch, tarball), '-C', modules]);
      const installed = join(modules, 'hookctl');
      renameSync(join(modules, 'package'), installed);
      copyFileSync(join(ctx.root, 'package-lock.json'), join(installed, 'package-lock.json'));
      npm(
        ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--silent'],
        installed,
      );
      rmSync(join(installed, 'package-lock.json')); // not part of what `npm install -g` leaves
      const size = measure(installed);
      const top = largest(join(installed, 'node_modules'), 4);
      ctx.log(
        `install: ${mb(size.bytes).toFixed(1)} MB in ${size.files} files, ${mb(size.disk).toFixed(1)} MB on disk`,
      );
      return [
        ctx.statsRow([mb(size.bytes)], {
          id: 'install-size',
          figure: 'installed size: the packed package and its production dependencies',
          unit: 'MB',
          aim: 30,
          detail:
            `${size.files} files, ${mb(size.disk).toFixed(1)} MB on disk (du); largest: ` +
            top.map((t) => `${t.name} ${mb(t.bytes).toFixed(1)} MB`).join(', '),
          extra: { bytes: size.bytes, diskBytes: size.disk, files: size.files },
        }),
      ];
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
