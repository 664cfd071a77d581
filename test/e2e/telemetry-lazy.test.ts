// The OpenTelemetry packages load only when exporting (issue 15): no built command reaches them
// through the requires it runs at start-up, only through a dynamic import of its own chunk.
// dist/modules.json is written by the build (scripts/build.mjs); import-graph.test.ts checks that
// it names exactly what each built file requires.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';

interface BuiltFile {
  modules: string[];
  imports: string[];
  dynamicImports: string[];
}
const dist = join(repoRoot, 'dist');
const built = JSON.parse(readFileSync(join(dist, 'modules.json'), 'utf8')) as Record<string, BuiltFile>;

/** What loading `entry` loads at once: files and packages, following static requires only. */
function loadedAtStart(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const dep of built[file]!.imports) {
      if (dep in built) stack.push(dep);
      else packages.add(dep);
    }
  }
  return { files, packages };
}

const LAZY = [
  'src/telemetry/otlp.ts',
  'src/telemetry/fire-export.ts',
  'src/telemetry/records-export.ts',
  'src/telemetry/model.ts',
];

describe('OpenTelemetry is loaded only when exporting', () => {
  const commands = readdirSync(join(dist, 'commands', 'hooks')).filter((f) => f.endsWith('.js'));

  it.each(commands)('hooks %s loads no OpenTelemetry package and no export module at start', (command) => {
    const { files, packages } = loadedAtStart(`commands/hooks/${command}`);
    expect([...packages].filter((p) => p.startsWith('@opentelemetry/'))).toEqual([]);
    const modules = [...files].flatMap((f) => built[f]!.modules);
    expect(modules.filter((m) => LAZY.includes(m))).toEqual([]);
    // The packages are bundled into the export's chunks (scripts/build.mjs BUNDLED).
    expect(modules.filter((m) => m.includes('node_modules/@opentelemetry/'))).toEqual([]);
  });

  it('the export modules are chunks of their own, reached by dynamic imports from fire and runs', () => {
    const chunkOf = (module: string) => Object.keys(built).find((f) => built[f]!.modules.includes(module))!;
    // Each of hookctl's export modules is alone among hookctl's modules in its chunk (the
    // OpenTelemetry code bundled with it comes from node_modules).
    for (const m of LAZY) expect(built[chunkOf(m)]!.modules.filter((x) => x.startsWith('src/'))).toEqual([m]);
    const dynamicFrom = (entry: string) => [...loadedAtStart(entry).files].flatMap((f) => built[f]!.dynamicImports);
    expect(dynamicFrom('commands/hooks/fire.js')).toContain(chunkOf('src/telemetry/fire-export.ts'));
    expect(dynamicFrom('commands/hooks/runs.js')).toContain(chunkOf('src/telemetry/records-export.ts'));
  });
});
