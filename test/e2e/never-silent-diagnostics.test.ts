// Issue 28, "the mistakes that make a hook never fire get a diagnostic", through the built CLI:
// each mistake is a `validate` diagnostic at its place, and the ones a hook survives are shown by
// `list --all`, `info` and as the reason in `fire --dry-run`'s plan.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { writeFileSync } from 'node:fs';
import { sandbox } from './claude-support.js';

interface Diag {
  code: string;
  severity: string;
  message: string;
  line: number;
  column?: number;
  hook?: string;
}

const diagnosticsOf = (stdout: string): Diag[] => (JSON.parse(stdout) as { diagnostics: Diag[] }).diagnostics;

describe('never silent: JSON sources', { timeout: 120_000 }, () => {
  it('a trailing comma in a settings file is reported at the comma, as a trailing comma', async () => {
    const s = sandbox();
    const file = join(s.workspace, '.claude', 'settings.json');
    writeFileSync(
      file,
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "true" } ] },\n    ]\n  }\n}\n',
    );
    const r = await s.cli(['hooks', 'validate', '-o', 'json']);
    expect(r.code).toBe(1);
    expect(diagnosticsOf(r.stdout).map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['json_parse_error', 4, 64, "invalid JSON: trailing comma before ']'"],
    ]);
  });

  it('a trailing comma in a cosh-extension.json and a compozy extension.json is reported at the comma', async () => {
    const dir = tempDir('hookctl-e2e-comma-');
    const cosh = join(dir, 'cosh-extension.json');
    writeFileSync(cosh, '{\n  "name": "x",\n  "version": "1.0.0",\n}\n');
    const compozy = join(dir, 'extension.json');
    writeFileSync(compozy, '{\n  "extension": { "name": "x", "version": "1.0.0", },\n  "resources": {}\n}\n');
    const env = isolatedEnv();
    for (const [file, line, column] of [
      [cosh, 3, 21],
      [compozy, 2, 49],
    ] as const) {
      const r = await runCli(['hooks', 'validate', file, '-o', 'json'], { env, cwd: dir });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      const d = diagnosticsOf(r.stdout);
      expect(
        d.map((x) => [x.code, x.line, x.column]),
        file,
      ).toEqual([['json_parse_error', line, column]]);
      expect(d[0]!.message).toContain("trailing comma before '}'");
    }
  });
});
