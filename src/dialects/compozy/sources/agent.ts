// AGENT.md (SPEC §2.4): a front matter with `name` (must equal the folder name) and `hooks:`, a
// list of declarations as in config.toml. Every hook is scoped to the agent (matcher.agent_name
// forced) and every message from it is prefixed `agent.hooks[<i>]: `. Other keys (provider,
// model, permissions, …) belong to the host runtime.
import type { Diagnostic } from '../../../declarations/diagnostics.js';
import {
  frontMatterRefusal,
  parseFrontMatter,
  splitFrontMatter,
  unterminatedFrontMatter,
} from '../../../declarations/frontmatter.js';
import type { RawHook } from '../rules/declaration.js';
import { makeDiagnostic } from '../../../declarations/source-file.js';
import { markDuplicateNames, positionOf } from './common.js';

export interface AgentFile {
  file: string;
  agentName: string;
  raws: RawHook[];
  diagnostics: Diagnostic[];
  /** false: CompozyOS ignores the whole agent (a byte-order mark), so none of its hooks is kept. */
  keep?: boolean;
}

/**
 * Parses one AGENT.md found in the folder `folderName`. `bom`: the file began with a UTF-8
 * byte-order mark (dropped from `text`), which CompozyOS refuses before a front matter.
 */
export function parseAgentFile(
  text: string,
  file: string,
  folderName: string,
  cwd: string,
  opts: { bom?: boolean } = {},
): AgentFile {
  const result: AgentFile = { file, agentName: folderName, raws: [], diagnostics: [] };
  const split = splitFrontMatter(text);
  const refusal = frontMatterRefusal(split, opts.bom === true, 'AGENT.md', file, 'agent_definition');
  if (refusal) {
    result.diagnostics.push(refusal);
    // A missing front matter leaves nothing to read; after a BOM the hooks are still checked.
    if (split.kind === 'none') return result;
    result.keep = false;
  }
  if (split.kind === 'none') return result;
  if (split.kind === 'unterminated') {
    result.diagnostics.push(unterminatedFrontMatter(split.delimiter, file, 'agent_definition'));
    return result;
  }
  const fm = parseFrontMatter(split.block, file, 'agent_definition');
  result.diagnostics.push(...fm.diagnostics);
  const data = fm.data;
  if (data === undefined) return result;
  const start = { line: split.block.firstLine };

  const name = data.name;
  if (name !== undefined && name !== null) {
    const written = typeof name === 'string' ? name.trim() : undefined;
    if (written !== folderName) {
      const message =
        written === undefined
          ? `agent name must be a string equal to its folder name "${folderName}"`
          : `agent name ${JSON.stringify(written)} must match its folder name ${JSON.stringify(folderName)}`;
      result.diagnostics.push(
        makeDiagnostic('error', 'agent_name_mismatch', message, file, positionOf(fm.locate, ['name'], start), {
          source: 'agent_definition',
        }),
      );
    }
    if (written) result.agentName = written;
  }

  const hooks = data.hooks;
  if (hooks === undefined || hooks === null) return result;
  if (!Array.isArray(hooks)) {
    result.diagnostics.push(
      makeDiagnostic(
        'error',
        'invalid_section',
        'agent.hooks must be a list of hook declarations',
        file,
        positionOf(fm.locate, ['hooks'], start),
        {
          source: 'agent_definition',
        },
      ),
    );
    return result;
  }
  hooks.forEach((value: unknown, i) => {
    const path = ['hooks', i];
    result.raws.push({
      source: 'agent_definition',
      file,
      position: positionOf(fm.locate, path, start),
      path,
      locate: fm.locate,
      value,
      cwd,
      messagePrefix: `agent.hooks[${i}]: `,
      agentName: result.agentName,
    });
  });
  result.diagnostics.push(...markDuplicateNames(result.raws));
  return result;
}
