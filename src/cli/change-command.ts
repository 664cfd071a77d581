// What the five commands that change declarations share: their flags and one run of the change
// (src/app/edit.ts), rendered by src/views/edit.ts. Each command file only names its action and
// flags.
import { Args, Flags, HookctlCommand, type BaseFlags } from './base-command.js';
import { usageError } from '../errors.js';
import { resolveChangeOwner } from '../app/change-owner.js';
import { dialectNames } from '../dialects/registry.js';
import { changeJson, renderChange, type ChangeResult } from '../views/edit.js';
import type { EditAction, EditScope } from '../dialects/types.js';

export const nameArg = {
  name: Args.string({
    ignoreStdin: true, // see src/cli/base-command.ts
    description:
      'Hook name (compozy: as declared; claude and codex: as hooks list shows it, such as project:PreToolUse:1.1 or user/hooks.json:PreToolUse:1.1).',
    required: true,
  }),
};

/** create (claude hooks have no names) and enable/disable (`--all-hooks`) may go without one. */
export const optionalNameArg = {
  name: Args.string({
    ignoreStdin: true, // see src/cli/base-command.ts
    description:
      'Hook name (compozy and cosh: as declared; claude and codex: as hooks list shows it, such as project:PreToolUse:1.1 or user/hooks.json:PreToolUse:1.1). None for a claude or codex create, nor with --all-hooks.',
    required: false,
  }),
};

export const targetFlags = {
  scope: Flags.string({
    description:
      'Which file to change. compozy: workspace (default, <workspace>/.compozy/config.toml) or global ($COMPOZY_HOME/config.toml); claude: project (default, alias workspace), local or user (alias global); codex: project (default, <workspace>/.codex/, alias workspace) or user ($CODEX_HOME, alias global).',
    options: ['workspace', 'global', 'project', 'local', 'user'],
  }),
  dialect: Flags.string({
    description:
      'The dialect whose hook this is (default: claude for a claude name or event, codex for a codex name or a codex-only event such as Interrupt, else compozy config.toml and cosh states).',
    options: dialectNames(),
  }),
  'dry-run': Flags.boolean({ description: 'Print the unified diff of the change and write nothing.' }),
};

/** `hooks enable|disable --all-hooks` (claude: disableAllHooks in the --scope file). */
export const allHooksFlag = {
  'all-hooks': Flags.boolean({
    description: 'claude: turn every hook off (disable) or back on (enable) in the --scope settings file.',
  }),
};

/** The declaration fields of `create` and `update`; `required` marks the ones create needs. */
export function fieldFlags(opts: { create: boolean }) {
  return {
    // Not oclif-required: a missing one gets a clear usage error of our own (runChange).
    event: Flags.string({
      description: `The event: compozy such as tool.pre_call, claude such as PreToolUse, codex such as Interrupt (see: hookctl hooks events); it chooses the dialect (an event claude and codex share is claude's without --dialect codex).${opts.create ? ' Required.' : ''}`,
    }),
    command: Flags.string({
      description: `compozy: the executable, run with --arg and no shell. claude: a shell command, run by /bin/sh -c, or with --arg the executable. codex: a shell command.${opts.create ? ' Required (claude: or --url).' : ''}`,
    }),
    arg: Flags.string({
      description:
        'An argument of the command (repeatable; on update the list replaces the old one). claude: exec form, no shell.',
      multiple: true,
    }),
    mode: Flags.string({ description: 'compozy: sync or async (claude: see --async).', options: ['sync', 'async'] }),
    required: Flags.boolean({
      description: 'compozy: a sync hook whose failure fails the dispatch.',
      allowNo: true,
    }),
    priority: Flags.string({ description: 'compozy: integer priority, higher runs first.' }),
    timeout: Flags.string({
      description:
        'compozy: a Go duration, such as 250ms, 5s, 1m30s. claude: seconds, a positive number such as 10. codex: whole seconds ≥ 0, such as 10.',
    }),
    matcher: Flags.string({
      description:
        'compozy: FIELD=PATTERN (repeatable); autonomy fields go under matcher.autonomy; tool_read_only=true|false. claude and codex: the group\'s raw matcher string, given once, such as Bash or "Edit|Write" (codex: a regular expression).',
      multiple: true,
    }),
    env: Flags.string({
      description: 'compozy: K=V added to the hook environment (repeatable). Secrets go in --secret-env.',
      multiple: true,
    }),
    'secret-env': Flags.string({
      description:
        'compozy: NAME=env:VAR (repeatable): NAME gets the value of VAR when the hook runs; written as secret_env.',
      multiple: true,
    }),
    // claude handler fields (claude.md §7).
    url: Flags.string({ description: 'claude: an http hook posting to this URL (instead of --command).' }),
    shell: Flags.string({ description: 'claude: bash or powershell.', options: ['bash', 'powershell'] }),
    async: Flags.boolean({ description: 'claude and codex: run in the background.', allowNo: true }),
    'async-rewake': Flags.boolean({ description: 'claude: background, and exit 2 wakes Claude.', allowNo: true }),
    header: Flags.string({
      description: 'claude: NAME=VALUE of an http hook (repeatable); use $VAR for secrets.',
      multiple: true,
    }),
    'allowed-env-var': Flags.string({
      description: 'claude: a variable http headers may expand (repeatable).',
      multiple: true,
    }),
    if: Flags.string({ description: 'claude: one permission rule, such as "Bash(git push *)".' }),
    'status-message': Flags.string({ description: 'claude and codex: spinner text (statusMessage).' }),
    // codex handler fields (codex.md §7).
    'context-limit': Flags.string({
      description: 'codex: additionalContextLimit, a whole number of tokens ≥ 0 (0: no limit).',
    }),
    file: Flags.string({
      description:
        'codex: which file of the --scope layer a create writes (default: the one that already holds hooks; hooks.json when both or neither do).',
      options: ['hooks.json', 'config.toml'],
    }),
  };
}

/** The base of create/update/delete/enable/disable: runs the change and prints its result. */
export abstract class DeclarationChangeCommand extends HookctlCommand {
  protected async runChange(
    action: EditAction,
    name: string | undefined,
    flags: BaseFlags & { scope?: string; 'dry-run'?: boolean; dialect?: string; 'all-hooks'?: boolean },
    /** create/update: the field flags, which the editing dialect reads (`changesFromFlags`). */
    fields: Record<string, unknown> = {},
  ): Promise<void> {
    const loc = this.locations(flags);
    const owner = await resolveChangeOwner(
      {
        action,
        name,
        event: typeof fields.event === 'string' ? fields.event : undefined,
        dialect: flags.dialect,
        allHooks: flags['all-hooks'],
      },
      loc,
      process.env,
    );
    if (owner !== undefined) {
      const dryRun = Boolean(flags['dry-run']);
      const input = { action, name, flags: flags as Record<string, unknown>, dryRun, loc, env: process.env };
      return this.printChange(await owner.changeHooks!(input), flags);
    }
    if (flags['all-hooks']) throw usageError('--all-hooks turns a whole settings file off: pass --dialect claude');
    if (name === undefined) throw usageError(`hooks ${action} needs a NAME`);
    if (flags.scope !== undefined && flags.scope !== 'workspace' && flags.scope !== 'global') {
      throw usageError(
        `--scope ${flags.scope} is for claude settings files; config.toml scopes are workspace and global`,
      );
    }
    const { changeFromFlags } = await import('../app/edit.js');
    const result = await changeFromFlags({
      action,
      name,
      scope: (flags.scope ?? 'workspace') as EditScope,
      fields,
      dryRun: Boolean(flags['dry-run']),
      loc,
      env: process.env,
    });
    this.printChange(result, flags);
  }

  private printChange(result: ChangeResult, flags: BaseFlags): void {
    for (const w of result.warnings) this.printWarning(w);
    for (const n of ('notes' in result ? result.notes : undefined) ?? []) this.printNote(n);
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson(changeJson(result));
    if (format === 'jsonl') return this.printJsonl([changeJson(result)]);
    this.print(renderChange(result, this.colour(flags)));
  }
}
