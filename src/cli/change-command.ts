// What the five commands that change declarations share: their flags and one run of the change
// (src/app/edit.ts), rendered by src/views/edit.ts. Each command file only names its action and
// flags.
import { Args, Flags, HookctlCommand, type BaseFlags } from './base-command.js';
import { changeJson, renderChange } from '../views/edit.js';
import type { EditAction, EditScope } from '../dialects/types.js';
import type { DeclarationFlags } from '../dialects/compozy/edit/flags-to-fields.js';

export const nameArg = {
  name: Args.string({
    ignoreStdin: true, // see src/cli/base-command.ts
    description: 'Hook name.',
    required: true,
  }),
};

export const targetFlags = {
  scope: Flags.string({
    description:
      'Which config.toml to change: workspace (<workspace>/.compozy/config.toml) or global ($COMPOZY_HOME/config.toml).',
    options: ['workspace', 'global'],
    default: 'workspace',
  }),
  'dry-run': Flags.boolean({ description: 'Print the unified diff of the change and write nothing.' }),
};

/** The declaration fields of `create` and `update`; `required` marks the ones create needs. */
export function fieldFlags(opts: { create: boolean }) {
  return {
    // Not oclif-required: a missing one gets a clear usage error of our own (runChange).
    event: Flags.string({ description: `Event, such as tool.pre_call.${opts.create ? ' Required.' : ''}` }),
    command: Flags.string({ description: `Command to run (not through a shell).${opts.create ? ' Required.' : ''}` }),
    arg: Flags.string({
      description: 'An argument of the command (repeatable; on update the list replaces the old one).',
      multiple: true,
    }),
    mode: Flags.string({ description: 'sync or async.', options: ['sync', 'async'] }),
    required: Flags.boolean({ description: 'A sync hook whose failure fails the dispatch.', allowNo: true }),
    priority: Flags.string({ description: 'Integer priority, higher runs first.' }),
    timeout: Flags.string({ description: 'Go duration, such as 250ms, 5s, 1m30s.' }),
    matcher: Flags.string({
      description: 'FIELD=PATTERN (repeatable); autonomy fields go under matcher.autonomy; tool_read_only=true|false.',
      multiple: true,
    }),
    env: Flags.string({
      description: 'K=V added to the hook environment (repeatable). Secrets belong in secret_env.',
      multiple: true,
    }),
  };
}

export function declarationFlagsOf(flags: Record<string, unknown>): DeclarationFlags {
  return {
    event: flags.event as string | undefined,
    command: flags.command as string | undefined,
    arg: flags.arg as string[] | undefined,
    mode: flags.mode as string | undefined,
    required: flags.required as boolean | undefined,
    priority: flags.priority as string | undefined,
    timeout: flags.timeout as string | undefined,
    matcher: flags.matcher as string[] | undefined,
    env: flags.env as string[] | undefined,
    unset: flags.unset as string[] | undefined,
  };
}

/** The base of create/update/delete/enable/disable: runs the change and prints its result. */
export abstract class DeclarationChangeCommand extends HookctlCommand {
  protected async runChange(
    action: EditAction,
    name: string,
    flags: BaseFlags & { scope?: string; 'dry-run'?: boolean },
    fields: DeclarationFlags = {},
  ): Promise<void> {
    const { changeFromFlags } = await import('../app/edit.js');
    const result = await changeFromFlags({
      action,
      name,
      scope: (flags.scope ?? 'workspace') as EditScope,
      fields,
      dryRun: Boolean(flags['dry-run']),
      loc: this.locations(flags),
      env: process.env,
    });
    for (const w of result.warnings) this.printWarning(w);
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson(changeJson(result));
    if (format === 'jsonl') return this.printJsonl([changeJson(result)]);
    this.print(renderChange(result, this.colour(flags)));
  }
}
