// Whole outputs through a pipe (SPEC §6 "JSON: stdout holds the document alone"): a report or a
// fire result bigger than a pipe's buffer (64 KiB on Linux) must arrive whole whatever the exit
// code, as it does when CI pipes `hookctl ... -o json | jq`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeBox, parseJson, runCliThroughPipe, STACK_FRAME, type Box } from './support.js';

/** The CLI with stdout on a real pipe (`hookctl ... | cat`). */
const pipedCli = (box: Box, args: string[], input = '') =>
  runCliThroughPipe([...args, '--workspace', box.workspace], { env: box.env, input });

describe.concurrent('outputs bigger than a pipe buffer arrive whole, whatever the exit code', () => {
  it('hooks validate -o json with errors (exit 1): a 1 MB report parses', async () => {
    const box = makeBox();
    // 3000 declarations, each with an unknown event: one error apiece.
    const toml = Array.from(
      { length: 3000 },
      (_, i) => `[[hooks.declarations]]\nname = "h${i}"\nevent = "no.such.event.${i}"\ncommand = "/bin/true"\n`,
    ).join('\n');
    const file = join(box.root, 'big', '.compozy', 'config.toml');
    mkdirSync(join(box.root, 'big', '.compozy'), { recursive: true });
    writeFileSync(file, toml);
    const res = await pipedCli(box, ['hooks', 'validate', file, '-o', 'json']);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(res.code).toBe(1);
    const report = parseJson<{ errors: number; diagnostics: unknown[] }>(res.stdout);
    expect(report.errors).toBe(3000);
    expect(report.diagnostics).toHaveLength(3000);
  });

  it('hooks fire -o json refusing (exit 2) over 3000 declaration errors: the error document parses', async () => {
    const box = makeBox();
    const toml = Array.from(
      { length: 3000 },
      (_, i) =>
        `[[hooks.declarations]]\nname = "h${i}"\nevent = "tool.pre_call"\nmode = "bogus"\ncommand = "/bin/true"\n`,
    ).join('\n');
    writeFileSync(join(box.workspace, '.compozy', 'config.toml'), toml);
    const res = await pipedCli(box, ['hooks', 'fire', 'tool.pre_call', '-o', 'json'], '{}');
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(res.code).toBe(2);
    const doc = parseJson<{ error: { code: string; diagnostics: unknown[] } }>(res.stdout);
    expect(doc.error.code).toBe('declarations_invalid');
    expect(doc.error.diagnostics).toHaveLength(3000);
  });

  it('hooks fire -o json denied (exit 1) with a 200 KB payload: the result parses', async () => {
    const box = makeBox();
    box.writeCompozy([
      {
        name: 'deny',
        event: 'tool.pre_call',
        mode: 'sync',
        command: box.hook('emit.sh'),
        args: ['{"deny":true,"deny_reason":"no"}'],
      },
    ]);
    const input = JSON.stringify({ tool_id: 'compozy__workspace_info', tool_input: { blob: 'x'.repeat(200 * 1024) } });
    const res = await pipedCli(box, ['hooks', 'fire', 'tool.pre_call', '--session', 'big', '-o', 'json'], input);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(res.code, res.stderr).toBe(1);
    const out = parseJson<{ verdict: string; payload: { tool_input: { blob: string } } }>(res.stdout);
    expect(out.verdict).toBe('denied');
    expect(out.payload.tool_input.blob).toHaveLength(200 * 1024);
  });

  it('hooks fire -o json completed (exit 0) with a 200 KB payload: the result parses (the control case)', async () => {
    const box = makeBox();
    box.writeCompozy([
      { name: 'ok', event: 'tool.pre_call', mode: 'sync', command: box.hook('emit.sh'), args: ['{}'] },
    ]);
    const input = JSON.stringify({ tool_id: 'compozy__workspace_info', tool_input: { blob: 'x'.repeat(200 * 1024) } });
    const res = await pipedCli(box, ['hooks', 'fire', 'tool.pre_call', '--session', 'big', '-o', 'json'], input);
    expect(res.code, res.stderr).toBe(0);
    expect(parseJson<{ payload: { tool_input: { blob: string } } }>(res.stdout).payload.tool_input.blob).toHaveLength(
      200 * 1024,
    );
  });

  it('hooks fire --payload-only for a cosh block (exit 1) with a 200 KB payload: the payload parses', async () => {
    const box = makeBox();
    box.writeCosh('PreToolUse', [{ name: 'block', command: `printf '%s' '{"decision":"block","reason":"no"}'` }]);
    const input = JSON.stringify({ tool_name: 'shell', tool_input: { command: 'x'.repeat(200 * 1024) } });
    const res = await pipedCli(box, ['hooks', 'fire', 'PreToolUse', '--session', 'big', '--payload-only'], input);
    expect(res.stderr).not.toMatch(STACK_FRAME);
    expect(res.code, res.stderr).toBe(1);
    expect(parseJson<{ tool_input: { command: string } }>(res.stdout).tool_input.command).toHaveLength(200 * 1024);
  });
});
