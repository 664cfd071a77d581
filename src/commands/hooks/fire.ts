import { Args, HookctlCommand } from '../../cli/base-command.js';
import { fireFlags } from '../../cli/fire-flags.js';
import { readPayloadText } from '../../cli/payload-input.js';
import { writeErr, writeOut } from '../../cli/output.js';
import { safeText } from '../../cli/safe-text.js';
import { fire, fireExitCode, planFire, type FireRequest } from '../../app/fire.js';
import {
  renderDryRun,
  renderFire,
  renderHookOutput,
  renderSkippedInvalid,
  renderWouldRefuse,
} from '../../views/fire.js';

export default class HooksFire extends HookctlCommand {
  static override summary = 'Fire an event: run its hooks as the runtime would, record every run, print the verdict.';
  static override description = `The payload comes from --payload FILE, else stdin when it is not a TTY, else {}; it must be one JSON object.
Exit codes: 0 completed (or stopped), 1 denied / blocked, 2 usage error, bad payload or declaration errors, 3 dispatch failed, 4 "ask" (claude: also "defer").
An event both cosh and claude know (PreToolUse, Stop, …) fires the dialect that declares it; when both do, pass --dialect.`;
  static override examples = [
    '<%= config.bin %> hooks fire prompt.post_assemble --payload payload.json',
    'echo \'{"tool_name":"shell","tool_input":{"command":"rm -rf /"}}\' | <%= config.bin %> hooks fire PreToolUse',
    '<%= config.bin %> hooks fire tool.pre_call --dry-run --payload payload.json',
  ];
  static override args = {
    event: Args.string({
      ignoreStdin: true, // see src/cli/base-command.ts
      description: 'Event name (compozy such as tool.pre_call; cosh or claude such as PreToolUse).',
      required: true,
    }),
  };
  static override flags = fireFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(HooksFire);
    const format = this.outputFormat(flags);
    const req: FireRequest = {
      event: args.event,
      payloadText: await readPayloadText(flags.payload),
      payloadSource: flags.payload === undefined || flags.payload === '-' ? '<stdin>' : flags.payload,
      sessionId: flags.session,
      hookName: flags.hook,
      noRecord: flags['no-record'],
      recordPayload: flags['record-payload'],
      dialect: flags.dialect,
      loc: this.locations(flags),
      env: process.env,
      options: {
        ...(flags.skill ? { skills: flags.skill } : {}),
        ...(flags.agent ? { agent: flags.agent } : {}),
        ...(flags['trust-all'] ? { trustAll: true } : {}),
      },
      onWarning: (w) => this.printWarning(w),
    };
    if (flags['dry-run']) {
      req.onSourceErrors = (event, errors) => writeErr(renderWouldRefuse(event, errors));
      const plan = await planFire(req);
      if (format === 'json') return this.printJson(plan);
      if (format === 'jsonl') return this.printJsonl(plan.plan);
      return this.print(await renderDryRun(plan, this.colour(flags)));
    }
    if (flags['skip-invalid']) req.onSkippedInvalid = (d) => writeErr(safeText(renderSkippedInvalid(d)));
    if (flags.verbose) req.onHookOutput = (hook, exec) => writeErr(safeText(renderHookOutput(hook, exec)));
    if (format === 'jsonl' && !flags['payload-only']) {
      req.onRecord = (r) => writeOut(JSON.stringify(r) + '\n');
      req.onNotification = (n) => writeOut(JSON.stringify(n) + '\n');
    }
    req.version = this.config.version;
    const result = await fire(req);
    const code = fireExitCode(result);
    if (flags['payload-only']) this.printJson(result.payload);
    else if (format === 'json') this.printJson(result);
    else if (format === 'human') this.print(await renderFire(result, code, this.colour(flags)));
    this.exitWith(code);
  }
}
