// Strings a regular expression probably matches, read off its text: each top-level alternative
// with its wildcards filled. `hooks test --init` uses them so that a starter case runs the hook
// it is written for; callers keep only the candidates their own matcher accepts.

/** Guesses at a string a regex matches: each top-level alternative with its wildcards filled. */
export function regexSamples(source: string): string[] {
  const alternatives = splitTopLevel(source.replace(/^\^/, '').replace(/\$$/, ''));
  const out: string[] = [];
  for (const alt of [...alternatives, source]) {
    const text = alt
      .replace(/^\^|\$$/g, '')
      .replace(/\(\?:/g, '(')
      .replace(/\((.*?)\|.*?\)/g, '$1') // a group's first alternative
      .replace(/[()]/g, '')
      .replace(/\.\*\??|\.\+\??/g, 'x')
      .replace(/\\b/g, '')
      .replace(/\\([.\\/*+?()[\]{}|^$-])/g, '$1')
      .replace(/\[([^\]\\])[^\]]*\]/g, '$1')
      .replace(/([A-Za-z0-9_])[?*]/g, '$1');
    out.push(text);
  }
  return out;
}

function splitTopLevel(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') i++;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}
