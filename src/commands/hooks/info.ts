import { Args, Flags, HookctlCommand, skippedDeclarationWarnings } from '../../cli/base-command.js';
import { renderTable } from '../../cli/table.js';
import { loadCatalog } from '../../catalog.js';
import { HookctlError, ExitCode } from '../../errors.js';
import { lastRunsOfHook } from '../../app/sessions.js';
import { toInfoDeclaration } from '../../views/info.js';
import { filterDeclarations } from '../../views/list.js';
import { displayPath } from '../../views/location.js';

export default class HooksInfo extends HookctlCommand {
  static override summary = 'Show every declaration of one hook name: all fields, where it is declared, its last runs.';
  static override examples = [
    '<%= config.bin %> hooks info block-secret-file-edits --workspace fixtures/demo/workspace',
    '<%= config.bin %> hooks info security-check -o json',
  ];
  static override args = {
    name: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Hook name.',
      required: true,
    }),
  };
  static override flags = {
    session: Flags.string({ description: 'Show runs from this session (default: the most recently written one).' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksInfo);
    const loc = this.locations(flags);
    const catalog = await loadCatalog(loc);
    for (const line of skippedDeclarationWarnings(catalog.diagnostics, (f) => displayPath(f))) this.printWarning(line);
    // In the order `hooks list --all` shows them: by dialect, event, then dispatch order.
    const matches = filterDeclarations(
      catalog.declarations.filter((d) => d.name === args.name),
      { all: true },
    );
    if (matches.length === 0) {
      throw new HookctlError('hook_not_found', `no hooks named "${args.name}" found`, ExitCode.no);
    }
    const declarations = matches.map((d) => toInfoDeclaration(d));
    const runs = lastRunsOfHook(loc, args.name, matches.map((d) => d.dialect), flags.session);
    const format = this.outputFormat(flags);
    if (format === 'json') return this.printJson({ name: args.name, declarations, runs });
    if (format === 'jsonl') return this.printJsonl([{ name: args.name, declarations, runs }]);

    const colour = this.colour(flags);
    const b = (t: string) => colour.paint('bold', t);
    const out: string[] = [];
    declarations.forEach((d, i) => {
      if (i > 0) out.push('');
      const status =
        d.status === 'active' ? colour.paint('ok', 'active') : colour.paint('warning', `${d.status}: ${d.why ?? ''}`);
      out.push(`${b(d.name ?? '(no name)')}  ${colour.paint('dim', `${d.location.file}:${d.location.line}`)}`);
      const field = (k: string, v: string) => out.push(`  ${k.padEnd(11)} ${v}`);
      field('status', status);
      field('event', d.event);
      field('dialect', d.dialect);
      field('source', d.skill_source ? `${d.source} (${d.skill_source})` : d.source);
      if (d.extension) field('extension', d.extension);
      field('order', d.order === null ? '-' : String(d.order));
      field('mode', d.required ? `${d.mode}, required` : d.mode);
      field('priority', String(d.priority));
      field('timeout', `${d.timeout_ms} ms`);
      field('executor', d.executor_kind);
      field('command', [d.command, ...d.args.map(quoteArg)].join(' '));
      field('cwd', d.cwd);
      if (d.env.length) field('env', d.env.join(', '));
      if (d.secret_env.length) field('secret_env', d.secret_env.join(', '));
      const matcher = Object.entries(d.matcher);
      field('matcher', matcher.length ? matcher.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ') : '(any)');
      const meta = Object.entries(d.metadata);
      if (meta.length) field('metadata', meta.map(([k, v]) => `${k}=${v}`).join(' '));
      if (d.description) field('description', d.description);
    });
    out.push('', b('Last runs'));
    if (runs.length === 0) out.push('  (none recorded)');
    else
      out.push(
        renderTable(
          ['Event', 'Outcome', 'Duration', 'Error', 'Recorded'],
          runs.map((r) => [r.event, r.outcome, `${r.duration_ms} ms`, r.error ?? '', r.recorded_at]),
          colour,
        ),
      );
    this.print(out.join('\n'));
  }
}

function quoteArg(a: string): string {
  return /^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a);
}
