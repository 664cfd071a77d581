// Reading raw argv before (or without) oclif's parser. Kept free of oclif imports: src/cli/run.ts
// imports it before the deferral of unused oclif modules is installed (src/cli/lazy-oclif.ts).

/** Whether the user asked for JSON, read from raw argv so it works even when parsing failed. */
export function wantsJson(argv: string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a === '--json') return true;
    if (a === '-ojson' || a === '--output=json' || a === '-o=json') return true;
    if ((a === '-o' || a === '--output') && argv[i + 1] === 'json') return true;
  }
  return false;
}
