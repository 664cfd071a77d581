// Which compozy declaration file a path is, for `hooks validate FILE` (SPEC §6: "their kind told
// by name and content"). The file name decides when it is one of the five known names; any other
// name is told by content. A config.toml inside a `.copilot-shell` or `copilot-shell` folder is
// cosh's, not ours (undefined), as is any file this cannot place.
import { basename, extname, sep } from 'node:path';

export type CompozyFileKind = 'config' | 'extension_toml' | 'extension_json' | 'agent' | 'skill';

export function detectCompozyFileKind(path: string, text: string): CompozyFileKind | undefined {
  const name = basename(path);
  switch (name) {
    case 'config.toml':
      return isCoshConfigPath(path) || looksLikeCoshConfig(text) ? undefined : 'config';
    case 'extension.toml':
      return 'extension_toml';
    case 'extension.json':
      return 'extension_json';
    case 'AGENT.md':
      return 'agent';
    case 'SKILL.md':
      return 'skill';
  }
  switch (extname(name).toLowerCase()) {
    case '.toml':
      if (/^\s*\[extension\]\s*(#.*)?$/m.test(text) || /^\s*\[\[resources\.hooks\]\]/m.test(text))
        return 'extension_toml';
      if (/^\s*\[\[hooks\.declarations\]\]/m.test(text) || /^\s*hooks\.declarations\s*=/m.test(text)) return 'config';
      return undefined;
    case '.json':
      return /^\s*\{/.test(text) && /"extension"\s*:/.test(text) && !/"hooks"\s*:\s*\{/.test(text)
        ? 'extension_json'
        : undefined;
  }
  const front = frontMatterText(text);
  if (front === undefined) return undefined;
  if (/^metadata\s*:/m.test(front) && front.includes('compozy')) return 'skill';
  if (/^hooks\s*[:=]/m.test(front)) return 'agent';
  return undefined;
}

function isCoshConfigPath(path: string): boolean {
  return path.split(sep).some((segment) => segment === '.copilot-shell' || segment === 'copilot-shell');
}

/** cosh config hooks are tables named after its eight events (`[[hooks.PreToolUse]]`). */
function looksLikeCoshConfig(text: string): boolean {
  return /^\s*\[\[hooks\.(PreToolUse|PostToolUse|PostToolUseFailure|UserPromptSubmit|SessionStart|Stop|BeforeModel|AfterModel)\]\]/m.test(
    text,
  );
}

function frontMatterText(text: string): string | undefined {
  const m = /^(---|\+\+\+)[ \t]*\r?\n([\s\S]*?)\r?\n\1[ \t]*(\r?\n|$)/.exec(text);
  return m?.[2];
}
