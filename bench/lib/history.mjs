// Inputs of the runs-over-time figures (issue 15, SPEC §11): 10,000 sessions, and a local OTLP
// sink for the fire-with-export figure. The 1,000,000-record log is figure 3's (ledgerHome).
import { once } from 'node:events';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { generateOnce, homeFolders, recordLine } from './fixtures.mjs';

/** A compozy home with `sessions` sessions of `perSession` records each (and cosh ones for every tenth). */
export function sessionsHome(workDir, sessions, perSession) {
  return generateOnce(join(workDir, `sessions-${sessions}x${perSession}-ws`), async (dir) => {
    const start = Date.UTC(2026, 0, 1);
    const workspace = join(dir, 'workspace'); // read with workspaceFlags(dir)
    mkdirSync(workspace, { recursive: true });
    for (let s = 0; s < sessions; s++) {
      const id = `bench-${String(s).padStart(6, '0')}`;
      const home = s % 10 === 9 ? '.copilot-shell' : '.compozy';
      const folder = join(dir, 'home', home, 'sessions', id);
      mkdirSync(folder, { recursive: true });
      let text = '';
      for (let i = 0; i < perSession; i++) text += recordLine(s * perSession + i, id, start, workspace);
      writeFileSync(join(folder, 'hook-runs.jsonl'), text);
    }
    mkdirSync(join(dir, 'system'), { recursive: true });
  });
}

/** A compozy home with `count` sync hooks on prompt.post_assemble running `true`. */
export function exportFireHome(workDir, count) {
  return generateOnce(join(workDir, `export-fire-${count}`), async (dir) => {
    let toml = '';
    for (let i = 0; i < count; i++) {
      toml += `[[hooks.declarations]]\nname = "true-${i}"\nevent = "prompt.post_assemble"\nmode = "sync"\ncommand = "true"\n\n`;
    }
    homeFolders(dir);
    const out = createWriteStream(join(dir, 'home', '.compozy', 'config.toml'));
    out.end(toml);
    await once(out, 'finish');
  });
}

/** An OTLP/HTTP sink on 127.0.0.1 that answers 200 to everything and counts requests. */
export async function startSink() {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.setHeader('content-type', 'application/x-protobuf');
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
