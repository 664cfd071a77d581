// `hooks info`'s work once its flags are parsed, shared by the oclif command and the fast path.
import type { Interfaces } from '@oclif/core';
import type HooksInfo from '../../commands/hooks/info.js';
import { hookInfo } from '../../app/info.js';
import { renderInfo, toInfoDeclaration } from '../../views/info.js';
import { skippedDeclarationWarnings } from '../../views/location.js';
import type { BaseFlagValues, CommandIO } from '../command-io.js';

export type InfoFlags = BaseFlagValues & Interfaces.InferredFlags<(typeof HooksInfo)['flags']>;
export type InfoArgs = { name: string };

export async function runInfo(io: CommandIO, flags: InfoFlags, args: InfoArgs): Promise<void> {
  const info = await hookInfo(io.locations(flags), args.name, {
    session: flags.session,
    dialect: flags.dialect,
    allWorkspaces: flags['all-workspaces'],
    onDiagnostics: (diagnostics) => {
      for (const line of skippedDeclarationWarnings(diagnostics)) io.printWarning(line);
    },
    onNotes: (notes) => {
      for (const note of notes) io.printNote(note);
    },
    onSources: io.sourcesRead,
  });
  const declarations = info.declarations.map((d) => toInfoDeclaration(d));
  const format = io.outputFormat(flags);
  const doc = {
    name: args.name,
    declarations,
    runs: info.runs,
    runs_workspace: info.runs_workspace,
    runs_without_workspace: info.runs_without_workspace,
  };
  if (format === 'json') return io.printJson(doc);
  if (format === 'jsonl') return io.printJsonl([doc]);
  io.print(
    renderInfo(declarations, info.runs, io.colour(flags), {
      workspace: info.runs_workspace,
      withoutWorkspace: info.runs_without_workspace,
    }),
  );
}
