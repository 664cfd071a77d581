// Which handlers of an event a claude fire runs (claude.md §5.1): active ones (the gates of §2.4
// already applied by the loaders), skill and agent hooks only when selected, whose group matcher
// matches and whose `if` matches or fails open. `fire --dry-run` shows every verdict.
import { basename, dirname } from 'node:path';
import type { OrderedDeclaration } from '../../../declarations/model.js';
import type { ClaudeEventData } from '../catalog-types.js';
import { isIfEvent } from '../catalog.js';
import { evaluateIfRule, type IfVerdict } from './if-eval.js';
import { groupMatcherVerdict, type MatcherVerdict } from './match.js';
import type { ClaudeHandlerInfo } from '../model.js';

/** `--skill NAME` (repeatable, `*` = all) and `--agent NAME`. */
export interface ClaudeSelection {
  skills?: string[];
  agent?: string;
  /**
   * `hooks replay`: a skill NAME also matches a project or user skill's folder name, which is what
   * Claude Code invokes (replay.md §4.2).
   */
  skillFolders?: boolean;
}

export interface HandlerSelection {
  decl: OrderedDeclaration;
  info: ClaudeHandlerInfo;
  /** The declaration's status, or `inactive` for a skill or agent hook that is not selected. */
  status: string;
  why?: string;
  matcher: MatcherVerdict | undefined;
  if: IfVerdict | null;
  /** It runs (or, when not runnable, is recorded skipped). */
  selected: boolean;
}

export function handlerInfo(decl: OrderedDeclaration): ClaudeHandlerInfo {
  return decl.extra as unknown as ClaudeHandlerInfo;
}

function inactiveWhy(
  decl: OrderedDeclaration,
  info: ClaudeHandlerInfo,
  sel: ClaudeSelection,
  agentType: unknown,
): string | undefined {
  const source: string = decl.source;
  if ((source === 'claude_skill' || source === 'claude_command') && info.skill !== undefined) {
    const skills = sel.skills ?? [];
    const folder = decl.skill_source === 'plugin' ? undefined : basename(dirname(decl.location.file));
    const byFolder = sel.skillFolders === true && folder !== undefined && skills.includes(folder);
    if (!skills.includes('*') && !skills.includes(info.skill) && !byFolder)
      return `skill "${info.skill}" is not selected (--skill ${info.skill})`;
  }
  if (source === 'claude_agent' && info.agent !== undefined) {
    if (sel.agent !== info.agent && agentType !== info.agent) {
      return `agent "${info.agent}" is not running (--agent ${info.agent}, or the payload's agent_type)`;
    }
  }
  return undefined;
}

export interface SelectOptions {
  event: ClaudeEventData;
  payload: Record<string, unknown>;
  declarations: OrderedDeclaration[];
  selection: ClaudeSelection;
  home: string | undefined;
  /** Evaluate every `if` (dry-run), not only those of handlers that could run. */
  evaluateAll: boolean;
}

export async function selectHandlers(opts: SelectOptions): Promise<HandlerSelection[]> {
  const cwd = typeof opts.payload.cwd === 'string' ? opts.payload.cwd : '';
  const out: HandlerSelection[] = [];
  for (const decl of opts.declarations) {
    if (decl.event !== opts.event.name) continue;
    const info = handlerInfo(decl);
    const inactive =
      decl.status === 'active' ? inactiveWhy(decl, info, opts.selection, opts.payload.agent_type) : undefined;
    const status = inactive !== undefined ? 'inactive' : decl.status;
    const why = inactive ?? decl.why;
    const matcher = groupMatcherVerdict(info.group_matcher, opts.event, opts.payload);
    const candidate = status === 'active' && (matcher === undefined || matcher.matched);
    let ifVerdict: IfVerdict | null = null;
    if (info.if !== null && (candidate || opts.evaluateAll)) {
      ifVerdict = isIfEvent(opts.event.name)
        ? await evaluateIfRule(info.if, { payload: opts.payload, cwd, home: opts.home })
        : {
            rule: info.if,
            verdict: 'no_match',
            why: `"if" is evaluated only on tool events; on ${opts.event.name} this hook never runs`,
          };
    }
    out.push({
      decl,
      info,
      status,
      ...(why !== undefined ? { why } : {}),
      matcher,
      if: ifVerdict,
      selected: candidate && (ifVerdict === null || ifVerdict.verdict !== 'no_match'),
    });
  }
  return out;
}
