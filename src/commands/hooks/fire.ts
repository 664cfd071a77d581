import { readFile } from 'node:fs/promises';
import { Args, Flags, HookctlCommand } from '../../cli/base-command.js';
import { renderTable } from '../../cli/table.js';
import { ExitCode, HookctlError } from '../../errors.js';
import { fire, fireExitCode, planFire, type FireRequest } from '../../fire.js';

export default class HooksFire extends HookctlCommand {
  static override summary = 'Fire an event: run its hooks as the runtime would, record every run, print the verdict.';
  static override description = `The payload comes from --payload FILE, else stdin when it is not a TTY, else {}; it must be one JSON object.
Exit codes: 0 completed (or stopped), 1 denied / blocked, 2 usage error, bad payload or declaration errors, 3 dispatch failed, 4 cosh "ask".`;
  static override examples = [
    '<%= config.bin %> hooks fire prompt.post_assemble --payload payload.json',
    'echo \'{"tool_name":"shell","tool_input":{"command":"rm -rf /"}}\' | <%= config.bin %> hooks fire PreToolUse',
    '<%= config.bin %> hooks fire tool.pre_call --dry-run --payload payload.json',
  ];
  static override args = {
    event: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Event name (compozy such as tool.pre_call, or cosh such as PreToolUse).',
      required: true,
    }),
  };
  static override flags = {
    payload: Flags.string({ description: 'Read the payload from this file ("-" for stdin).' }),
    session: Flags.string({ description: 'Session id (default: the payload session_id, else a new id).' }),
    'payload-only': Flags.boolean({ description: 'Print only the final payload JSON.' }),
    'dry-run': Flags.boolean({ description: 'Run and record nothing: show which hooks would run and why.' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksFire);
    const format = this.outputFormat(flags);
    const req: FireRequest = {
      event: args.event,
      payloadText: await readPayloadText(flags.payload),
      sessionId: flags.session,
      loc: this.locations(flags),
      env: process.env,
    };
    const colour = this.colour(flags);

    if (flags['dry-run']) {
      const plan = await planFire(req);
      if (format === 'json') return this.printJson(plan);
      if (format === 'jsonl') return this.printJsonl(plan.plan);
      if (plan.plan.length === 0) return this.print(`No hooks declared for ${plan.event}.`);
      this.print(
        renderTable(
          ['Order', 'Name', 'Source', 'Mode', 'Matched', 'Why'],
          plan.plan.map((p) => [
            p.order,
            p.name,
            p.source,
            p.mode,
            p.matched ? colour.paint('ok', 'yes') : colour.paint('warning', 'no'),
            p.status !== 'active'
              ? `${p.status}${p.why ? `: ${p.why}` : ''}`
              : p.fields.length === 0
                ? '(no matcher)'
                : p.fields
                    .map(
                      (f) =>
                        `${f.field} ${JSON.stringify(f.pattern)} vs ${f.value === undefined ? '(absent)' : JSON.stringify(f.value)}: ${f.matched ? 'match' : 'no match'}`,
                    )
                    .join('; '),
          ]),
          colour,
        ),
      );
      return;
    }

    if (format === 'jsonl' && !flags['payload-only']) {
      req.onRecord = (r) => process.stdout.write(JSON.stringify(r) + '\n');
      req.onNotification = (n) => process.stdout.write(JSON.stringify(n) + '\n');
    }
    req.onWarning = (w) => this.printWarning(w);
    req.version = this.config.version;
    const result = await fire(req);
    const code = fireExitCode(result);
    if (flags['payload-only']) this.printJson(result.payload);
    else if (format === 'json') this.printJson(result);
    else if (format === 'human') {
      const verdictStyle = code === ExitCode.ok ? 'ok' : code === ExitCode.ask ? 'warning' : 'error';
      const lines = [`${colour.paint('bold', 'verdict')}  ${colour.paint(verdictStyle, result.verdict)}`];
      const why = result.deny_reason ?? result.error ?? result.reason ?? null;
      if (why) lines.push(`${colour.paint('bold', 'reason')}   ${why}`);
      if (result.system_message) lines.push(`${colour.paint('bold', 'message')}  ${result.system_message}`);
      if (result.additional_context)
        lines.push(`${colour.paint('bold', 'context')}  ${result.additional_context.replaceAll('\n', '\n         ')}`);
      lines.push(
        colour.paint('dim', `session ${result.session_id}  dispatch ${result.dispatch_id}  event ${result.event}`),
      );
      lines.push('');
      if (result.runs.length === 0) lines.push('No hooks ran.');
      else
        lines.push(
          renderTable(
            ['Hook', 'Mode', 'Outcome', 'Duration', 'Error'],
            result.runs.map((r) => [
              r.hook_name,
              r.mode,
              r.outcome,
              `${r.duration_ms} ms`,
              r.error ?? (r.decision ? `decision: ${r.decision}` : ''),
            ]),
            colour,
          ),
        );
      if (result.async_queued) lines.push(colour.paint('dim', `${result.async_queued} async hook(s) queued`));
      lines.push('', colour.paint('bold', 'payload'), JSON.stringify(result.payload, null, 2));
      this.print(lines.join('\n'));
    }
    this.exitWith(code);
  }
}

async function readPayloadText(file: string | undefined): Promise<string | undefined> {
  if (file !== undefined && file !== '-') {
    try {
      return await readFile(file, 'utf8');
    } catch (e) {
      throw new HookctlError(
        'payload_unreadable',
        `cannot read payload file "${file}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        ExitCode.usage,
      );
    }
  }
  if (file === undefined && process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
