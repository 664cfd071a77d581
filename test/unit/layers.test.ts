// The plug-in boundary (docs/DESIGN.md "Layout", issue 23): imports run downwards only, and no
// code outside a dialect's folder reaches into it or names it. Read off the sources, so a new
// import that runs the wrong way fails here before review.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialectNames } from '../../src/dialects/registry.js';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative module a file imports (static, dynamic and `export … from`), as src-relative paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => relative(src, resolve(dirname(file), s)).replace(/\.js$/, '.ts'));
}

const files = sourceFiles(src).map((f) => ({ file: relative(src, f), imports: importsOf(f) }));
const dialects = dialectNames();

describe('the plug-in boundary', () => {
  it('reads the imports it checks (so the checks below can fail)', () => {
    const registry = files.find((f) => f.file === 'dialects/registry.ts')!;
    expect(registry.imports).toEqual(expect.arrayContaining(dialects.map((d) => `dialects/${d}/index.ts`)));
  });

  it('a dialect imports no command, CLI module, view or use case', () => {
    const wrong = files
      .filter((f) => f.file.startsWith('dialects/'))
      .flatMap((f) => f.imports.filter((i) => /^(commands|cli|views|app)\//.test(i)).map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });

  it('a use case imports no view, command or CLI module', () => {
    const wrong = files
      .filter((f) => f.file.startsWith('app/'))
      .flatMap((f) => f.imports.filter((i) => /^(commands|cli|views)\//.test(i)).map((i) => `${f.file} → ${i}`));
    expect(wrong).toEqual([]);
  });

  it("nothing outside a dialect's folder imports its files, but the registry its index", () => {
    const wrong = files.flatMap((f) =>
      f.imports
        .filter((i) => {
          const d = dialects.find((name) => i.startsWith(`dialects/${name}/`));
          if (d === undefined || f.file.startsWith(`dialects/${d}/`)) return false;
          return !(f.file === 'dialects/registry.ts' && i === `dialects/${d}/index.ts`);
        })
        .map((i) => `${f.file} → ${i}`),
    );
    expect(wrong).toEqual([]);
  });

  it("no code outside a dialect's folder compares a dialect name (hooks replay reads Claude Code transcripts: replay.md)", () => {
    const allowed = (file: string) => file.startsWith('replay/');
    const q = `['"\`]`;
    const compares = (d: string) =>
      new RegExp(
        `[=!]==?\\s*${q}${d}${q}|${q}${d}${q}\\s*[=!]==?|case\\s+${q}${d}${q}|\\.(?:includes|has)\\(\\s*${q}${d}${q}`,
      );
    expect(compares('claude').test("if (d.dialect === 'claude') return")).toBe(true);
    expect(compares('claude').test("description: 'claude events have none'")).toBe(false);
    const wrong = files
      .filter((f) => !f.file.startsWith('dialects/') && !allowed(f.file))
      .flatMap((f) => {
        const text = readFileSync(join(src, f.file), 'utf8');
        return dialects.filter((d) => compares(d).test(text)).map((d) => `${f.file}: '${d}'`);
      });
    expect(wrong).toEqual([]);
  });
});
