// What CompozyOS's own loaders refuse, and hookctl now says too (issue 17): AGENT.md and SKILL.md
// without a front matter or with a BOM before it, unknown [resources] keys, the [extension]
// identity (version required and semantic, unknown min_* keys), and a SKILL.md that a symbolic
// link takes out of its skill folder. Each over a real temporary tree, by loading every source
// and by `validate FILE`.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isSemanticVersion } from '../../src/dialects/compozy/sources/extension.js';
import { loadCompozySources, validateCompozyFile } from '../../src/dialects/compozy/sources/load.js';
import type { Diagnostic } from '../../src/declarations/diagnostics.js';
import type { Locations } from '../../src/paths.js';
import { tempDir } from '../support/temp.js';

let root: string;
let loc: Locations;

beforeEach(async () => {
  root = tempDir('hookctl-upstream-');
  loc = {
    compozyHome: join(root, 'home'),
    coshHome: join(root, 'cosh'),
    coshSystemRoot: join(root, 'system'),
    workspace: join(root, 'workspace'),
    additionalDirs: [],
    bundledSkillsDir: join(root, 'bundled'),
    pluginDirs: [],
    stateDir: join(root, 'state'),
  };
  await mkdir(loc.workspace, { recursive: true });
});

async function write(rel: string, content: string | Buffer): Promise<string> {
  const path = join(root, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

const shape = (ds: Diagnostic[]) => ds.map((d) => [d.severity, d.code, d.line, d.message]);

/** Loading every source and validating the one file say the same. */
async function bothWays(file: string) {
  const all = await loadCompozySources(loc, {});
  const one = await validateCompozyFile(file, loc, {});
  expect(shape(one.diagnostics)).toEqual(shape(all.diagnostics.filter((d) => d.file === file)));
  return all;
}

const HOOK = 'hooks:\n  - name: h\n    event: session.post_create\n    command: /bin/true\n';

describe('AGENT.md and SKILL.md front matter', () => {
  it('an AGENT.md with no front matter at all is an error, also from validate FILE', async () => {
    const file = await write('home/agents/plain/AGENT.md', '# Plain agent\n\nJust prose.\n');
    const { declarations, diagnostics } = await bothWays(file);
    expect(declarations).toEqual([]);
    expect(shape(diagnostics)).toEqual([
      [
        'error',
        'frontmatter_missing',
        1,
        'AGENT.md has no front matter: CompozyOS refuses a file that does not open with a "---" line',
      ],
    ]);
  });

  it('a SKILL.md with no front matter at all is an error, also from validate FILE', async () => {
    const file = await write('home/skills/plain/SKILL.md', 'Use this skill wisely.\n');
    const { diagnostics } = await bothWays(file);
    expect(shape(diagnostics)).toEqual([
      [
        'error',
        'frontmatter_missing',
        1,
        'SKILL.md has no front matter: CompozyOS refuses a file that does not open with a "---" line',
      ],
    ]);
  });

  it('an AGENT.md starting with a UTF-8 BOM is an error that says so; its hooks are checked but never kept', async () => {
    const text = `---\nname: bommed\n${HOOK}---\n`;
    const file = await write(
      'home/agents/bommed/AGENT.md',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    );
    const { declarations, diagnostics } = await bothWays(file);
    expect(declarations).toEqual([]);
    expect(shape(diagnostics)).toEqual([
      [
        'error',
        'frontmatter_bom',
        1,
        'AGENT.md starts with a UTF-8 byte-order mark before its front matter: CompozyOS refuses the file; save it as UTF-8 without BOM',
      ],
    ]);
    // The same file without the BOM loads its hook.
    await write('home/agents/bommed/AGENT.md', text);
    expect((await loadCompozySources(loc, {})).declarations.map((d) => d.name)).toEqual(['h']);
  });

  it('a SKILL.md starting with a UTF-8 BOM is refused too, as CompozyOS does', async () => {
    const text =
      '---\nname: s\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_create\n        command: /bin/true\n---\n';
    const file = await write('home/skills/s/SKILL.md', '\uFEFF' + text);
    const { declarations, diagnostics } = await bothWays(file);
    expect(declarations).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['frontmatter_bom']);
  });
});

describe('extension manifest: [resources] and [extension]', () => {
  const manifest = (extension: string, extra = '') =>
    `[extension]\n${extension}\n\n${extra}[[resources.hooks]]\nname = "h"\nevent = "session.post_create"\ncommand = "/bin/true"\n`;

  it("unknown keys under [resources] are errors with upstream's text; the known ones are not", async () => {
    const file = await write(
      'home/extensions/e/extension.toml',
      manifest(
        'name = "e"\nversion = "0.1.0"',
        '[resources]\nwidgets = ["w"]\nbundles = ["b"]\nskills = ["s"]\nmcp_servers = {}\n\n',
      ),
    );
    const { diagnostics } = await bothWays(file);
    expect(shape(diagnostics)).toEqual([
      [
        'error',
        'invalid_manifest_field',
        6,
        'extension: invalid manifest field "resources.widgets": unknown manifest field "resources.widgets"',
      ],
      [
        'error',
        'invalid_manifest_field',
        7,
        'extension: invalid manifest field "resources.bundles": unknown manifest field "resources.bundles"',
      ],
    ]);
  });

  it('extension.json: an unknown resources key too', async () => {
    const file = await write(
      'home/extensions/j/extension.json',
      JSON.stringify({ extension: { name: 'j', version: '1.0.0' }, resources: { hooks: [], widgets: [] } }),
    );
    const { diagnostics } = await bothWays(file);
    expect(diagnostics.map((d) => d.message)).toEqual([
      'extension: invalid manifest field "resources.widgets": unknown manifest field "resources.widgets"',
    ]);
  });

  it('version is required and must be a semantic version: "latest" is not', async () => {
    const missing = await write('home/extensions/a/extension.toml', manifest('name = "a"'));
    const latest = await write('home/extensions/b/extension.toml', manifest('name = "b"\nversion = "latest"'));
    const good = await write(
      'home/extensions/c/extension.toml',
      manifest('name = "c"\nversion = "v1.2.3-beta.1+build.5"'),
    );
    await bothWays(missing);
    const { diagnostics, declarations } = await bothWays(latest);
    const of = (f: string) => shape(diagnostics.filter((d) => d.file === f));
    expect(of(missing)).toEqual([
      ['error', 'invalid_manifest_field', 1, 'extension: invalid manifest field "version": value is required'],
    ]);
    expect(of(latest)).toEqual([
      [
        'error',
        'invalid_manifest_field',
        3,
        'extension: invalid manifest field "version" (value "latest"): must be a semantic version',
      ],
    ]);
    expect(of(good)).toEqual([]);
    // The declarations stay visible; fire refuses because their sources have errors (SPEC §6).
    expect(declarations.map((d) => d.metadata.extension).sort()).toEqual(['a', 'b', 'c']);
  });

  it('an unknown min_* key is an error; min_compozy_version must be a semantic version', async () => {
    const file = await write(
      'home/extensions/m/extension.toml',
      manifest('name = "m"\nversion = "0.2.1"\nmin_other_version = "0.5.0"\nmin_compozy_version = "soon"'),
    );
    const { diagnostics } = await bothWays(file);
    expect(shape(diagnostics)).toEqual([
      [
        'error',
        'invalid_manifest_field',
        4,
        'extension: invalid manifest field "min_other_version": unknown manifest field "min_other_version"; CompozyOS reads only "min_compozy_version"',
      ],
      [
        'error',
        'invalid_manifest_field',
        5,
        'extension: invalid manifest field "min_compozy_version" (value "soon"): must be a semantic version',
      ],
    ]);
  });

  it('semantic versions as CompozyOS parses them', () => {
    for (const v of ['0.1.0', 'v1.2.3', '1.0.0-beta.21', '1.0.0-rc.1+sha.abc', '0.3.0-beta.1'])
      expect(isSemanticVersion(v)).toBe(true);
    for (const v of ['latest', '1', '1.2', '01.2.3', '1.2.3-01', '1.2.3-', '1.2.3+', '1.2.3.4', ''])
      expect(isSemanticVersion(v)).toBe(false);
  });
});

describe('SKILL.md through a symbolic link', () => {
  const skill =
    '---\nname: linked\nmetadata:\n  compozy:\n    hooks:\n      - event: session.post_create\n        command: /bin/true\n---\n';

  it('a SKILL.md link that leaves its skill folder is refused: escapes skill root', async () => {
    const outside = await write('outside/SKILL.md', skill);
    await mkdir(join(root, 'home/skills/linked'), { recursive: true });
    const link = join(root, 'home/skills/linked/SKILL.md');
    await symlink(outside, link);
    const { declarations, diagnostics } = await bothWays(link);
    expect(declarations).toEqual([]);
    expect(shape(diagnostics)).toEqual([
      [
        'error',
        'path_escapes_root',
        1,
        `path ${JSON.stringify(outside)} escapes skill root ${JSON.stringify(join(root, 'home/skills/linked'))}`,
      ],
    ]);
  });

  it('a link that stays inside the skill folder, and a skill folder that is itself a link, are fine', async () => {
    await write('home/skills/inside/docs/real.md', skill.replace('linked', 'inside'));
    await symlink(join(root, 'home/skills/inside/docs/real.md'), join(root, 'home/skills/inside/SKILL.md'));
    await write('elsewhere/folder/SKILL.md', skill.replace('linked', 'folder'));
    await symlink(join(root, 'elsewhere/folder'), join(root, 'home/skills/folder'));
    const { declarations, diagnostics } = await loadCompozySources(loc, {});
    expect(diagnostics).toEqual([]);
    expect(declarations.map((d) => d.name).sort()).toEqual(['folder', 'inside']);
  });
});
