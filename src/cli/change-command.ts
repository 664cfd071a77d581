// What the five commands that change declarations share: their flags and their output. Each
// command file only names its action and flags.
import { Args, Flags, HookctlCommand, type BaseFlags } from './base-command.js';
import type { Colour } from './colour.js';
import { usageError } from '../errors.js';
import { displayPath } from '../views/location.js';
import type { ChangeResult, Scope } from '../app/edit.js';
import type { EditAction } from '../dialects/compozy/edit/declaration-edit.js';
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

const PAST: Record<EditAction, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  enable: 'enabled',
  disable: 'disabled',
};

/** One line for a person: what changed where, or that nothing had to. */
export function describeChange(result: ChangeResult): string {
  const q = JSON.stringify(result.name);
  const where = (t: ChangeResult['targets'][number]): string =>
    `${result.action === 'delete' ? 'from' : 'in'} ${displayPath(t.file)}`;
  const subject = (t: ChangeResult['targets'][number]): string =>
    t.dialect === 'cosh' ? `cosh hook ${q}` : `hook ${q}`;
  const changed = result.targets.filter((t) => t.changed);
  if (changed.length === 0) {
    const what =
      result.action === 'enable' || result.action === 'disable'
        ? `is already ${PAST[result.action]}`
        : 'already has these values';
    return `${result.targets.map(subject).join(' and ')} ${what} (${result.targets.map((t) => displayPath(t.file)).join(', ')}): no change`;
  }
  return `${PAST[result.action]} ${changed.map((t) => `${subject(t)} ${where(t)}`).join(' and ')}`;
}

/** A diff with + and - lines coloured. */
export function paintDiff(diff: string, colour: Colour): string {
  if (!colour.enabled) return diff;
  return diff
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return colour.paint('bold', line);
      if (line.startsWith('@@')) return colour.paint('accent', line);
      if (line.startsWith('+')) return colour.paint('ok', line);
      if (line.startsWith('-')) return colour.paint('error', line);
      return line;
    })
    .join('\n');
}

/** The base of create/update/delete/enable/disable: runs the change and prints its result. */
export abstract class DeclarationChangeCommand extends HookctlCommand {
  protected async runChange(
    action: EditAction,
    name: string,
    flags: BaseFlags & { scope?: string; 'dry-run'?: boolean },
    fields: DeclarationFlags = {},
  ): Promise<void> {
    const [{ changeDeclaration }, { changesFromFlags }] = await Promise.all([
      import('../app/edit.js'),
      import('../dialects/compozy/edit/flags-to-fields.js'),
    ]);
    if (action === 'create') {
      for (const flag of ['event', 'command'] as const)
        if (fields[flag] === undefined) throw usageError(`hooks create needs --${flag}`);
    }
    const changes = action === 'create' || action === 'update' ? changesFromFlags(fields) : undefined;
    if (action === 'update' && changes!.length === 0) {
      throw usageError(
        'nothing to update: give at least one field flag (--event, --command, --arg, --mode, --required, --priority, --timeout, --matcher, --env) or --unset',
      );
    }
    const result = await changeDeclaration({
      action,
      name,
      scope: (flags.scope ?? 'workspace') as Scope,
      changes,
      dryRun: Boolean(flags['dry-run']),
      loc: this.locations(flags),
      env: process.env,
    });
    for (const w of result.warnings) this.printWarning(w);
    const format = this.outputFormat(flags);
    const json = {
      action: result.action,
      name: result.name,
      scope: result.scope,
      file: result.file,
      changed: result.changed,
      ...(result.dry_run ? { dry_run: true, diff: result.diff } : {}),
      targets: result.targets,
    };
    if (format === 'json') return this.printJson(json);
    if (format === 'jsonl') return this.printJsonl([json]);
    if (result.dry_run) {
      if (result.diff) this.print(paintDiff(result.diff, this.colour(flags)));
      else
        this.print(
          `${describeChange({ ...result, targets: result.targets.map((t) => ({ ...t, changed: false })) })} (dry run)`,
        );
      return;
    }
    this.print(describeChange(result));
  }
}
