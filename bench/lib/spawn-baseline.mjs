#!/usr/bin/env node
// The yardstick of figure 2: what running N hooks costs with nothing but Node. Spawns the same
// command N times one after another, writes the payload to each one's stdin, reads its stdout
// to the end and waits for it to exit — the least any dispatcher has to do. With --parallel, all
// N start at once and it waits for every one (what a claude dispatch does: its hooks run in parallel).
// Usage: node spawn-baseline.mjs [--parallel] COUNT PAYLOAD_FILE COMMAND [ARG...]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const parallel = argv[0] === '--parallel';
const [count, payloadFile, command, ...args] = parallel ? argv.slice(1) : argv;
const payload = JSON.stringify(JSON.parse(readFileSync(payloadFile, 'utf8')));

function runOnce() {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', () => {});
    child.stdin.on('error', () => {}); // a hook that never reads stdin
    child.stdin.end(payload);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8') }));
  });
}

let failed = 0;
if (parallel) {
  const results = await Promise.all(Array.from({ length: Number(count) }, () => runOnce()));
  failed = results.filter((r) => r.code !== 0).length;
} else {
  for (let i = 0; i < Number(count); i++) if ((await runOnce()).code !== 0) failed++;
}
if (failed) {
  process.stderr.write(`${failed} of ${count} runs failed\n`);
  process.exitCode = 1;
}
