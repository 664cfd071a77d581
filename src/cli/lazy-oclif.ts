// Defers the parts of @oclif/core that running a command never touches: the help renderer, the
// ux toolkit (spinners, prompts, JSON colouring), ejs templates, plugin discovery (minimatch,
// tinyglobby, lilconfig), error pretty-printing and the `debug` logger. oclif requires them all at the top of its
// modules, which is about a sixth of hookctl's start-up (docs/PERFORMANCE.md).
//
// How: while `require` runs inside the listed oclif files, a listed request returns a stand-in
// that loads the real module the first time anything touches it. So `hooks list --help` still
// gets the help renderer, a parse error still gets pretty-printing: later, on the path that needs
// it. The one property read before that is `__esModule` (TypeScript's import helpers read it
// while oclif's modules load), which the table answers; a test checks the table against the
// real modules, so an oclif upgrade that changes them fails the test rather than hookctl.
import { readFileSync } from 'node:fs';
import NodeModule from 'node:module';

/** oclif file (under @oclif/core/lib/) → request it makes → the real module's `__esModule`. */
export const DEFERRED: Readonly<Record<string, Readonly<Record<string, boolean>>>> = {
  'command.js': { './ux': true },
  'flags.js': { './help': true },
  'module-loader.js': { 'get-package-type': false }, // only for commands missing from the manifest
  'config/config.js': { '../ux': true, '../ux/theme': true, '../util/determine-priority': true, ejs: false },
  'config/plugin-loader.js': { minimatch: true },
  // Building a manifest; finding the root and reading package.json, both handed over by
  // src/cli/run.ts for the root plugin, the only plugin.
  'config/plugin.js': {
    tinyglobby: false,
    '../util/cache-command': true,
    '../util/find-root': true,
    '../util/read-pjson': true,
  },
  'config/ts-path.js': { '../util/read-tsconfig': true, 'node:fs/promises': false }, // development mode only
  'errors/handle.js': { '../help/index': true, 'clean-stack': false },
  'errors/errors/cli.js': {
    '../../ux/theme': true,
    'wrap-ansi': false,
    'indent-string': false,
    'clean-stack': false,
    '../../screen': true, // creates process.stdout and process.stderr; read only to lay out an error
  },
  'errors/errors/pretty-print.js': { 'wrap-ansi': false, 'indent-string': false, '../../screen': true },
  'help/util.js': { ejs: false },
  'logger.js': { debug: false }, // with DEBUG unset, src/cli/run.ts gives oclif a logger of its own
  'parser/help.js': { '../ux': true },
  'parser/parse.js': { './errors': true, 'node:readline': false }, // parse errors; stdin (unused: ignoreStdin)
  'performance.js': { 'node:perf_hooks': false }, // only with OCLIF_PERFORMANCE or DEBUG set
  'parser/validate.js': { './errors': true },
  'util/read-pjson.js': { lilconfig: false },
  'util/os.js': { 'node:child_process': false }, // getShell() on Windows only
  'util/fs.js': { 'node:fs/promises': false }, // readFile answered by the stand-in, see ANSWERED
};

/**
 * Requests whose stand-in answers some properties itself. oclif's util/fs.js reads JSON files (the
 * manifest, and the theme file twice, which is absent) with fs/promises' readFile: each run,
 * the only use of fs/promises, which Node must load and compile with what it loads in turn
 * (readline, file handles, watchers; docs/PERFORMANCE.md change 36). The same read, done
 * synchronously inside an async function, gives oclif the same text or the same rejection.
 */
const ANSWERED: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, unknown>>>>>> = {
  'util/fs.js': {
    'node:fs/promises': {
      readFile: async (path: unknown, options?: unknown) =>
        readFileSync(path as string, options as BufferEncoding | undefined),
    },
  },
};

const REQUESTS = new Set(Object.values(DEFERRED).flatMap((requests) => Object.keys(requests)));
const MARKERS = ['/@oclif/core/lib/', '\\@oclif\\core\\lib\\'];

interface ModuleStatic {
  _load(request: string, parent: { filename?: string | null } | undefined, isMain: boolean): unknown;
}

let installed = false;

/** Installs the deferral (once per process). Call before @oclif/core is first required. */
export function deferUnusedOclifModules(): void {
  if (installed) return;
  installed = true;
  const Module = NodeModule as unknown as ModuleStatic;
  const load = Module._load;
  Module._load = function (this: unknown, request, parent, isMain) {
    if (REQUESTS.has(request)) {
      const parentFile = parent?.filename ?? undefined;
      const esModule = deferredEsModule(parentFile, request);
      if (esModule !== undefined) {
        return lazyModule(() => load.call(this, request, parent, isMain), esModule, answered(parentFile, request));
      }
    }
    return load.call(this, request, parent, isMain);
  };
}

function oclifFile(filename: string): string | undefined {
  for (const marker of MARKERS) {
    const at = filename.lastIndexOf(marker);
    if (at !== -1) return filename.slice(at + marker.length).replaceAll('\\', '/');
  }
  return undefined;
}

/** The table's `__esModule` for this request from this file; undefined = not deferred. */
export function deferredEsModule(parentFile: string | undefined, request: string): boolean | undefined {
  if (parentFile === undefined) return undefined;
  const file = oclifFile(parentFile);
  return file === undefined ? undefined : DEFERRED[file]?.[request];
}

/** The properties the stand-in for this request from this file answers itself (ANSWERED). */
export function answered(
  parentFile: string | undefined,
  request: string,
): Readonly<Record<string, unknown>> | undefined {
  const file = parentFile === undefined ? undefined : oclifFile(parentFile);
  return file === undefined ? undefined : ANSWERED[file]?.[request];
}

/**
 * A stand-in for a module's exports that loads the module on first use: property reads, calls
 * (a module that is a function), `new`, `in`, key listing. Until then only `__esModule` is known,
 * and the properties of `own`, which are read from there instead of the module.
 */
export function lazyModule(load: () => unknown, esModule: boolean, own?: Readonly<Record<string, unknown>>): unknown {
  let real: object | undefined;
  const get = (): object => (real ??= load() as object);
  // A bound function: callable and constructible, and with no own non-configurable keys (such as
  // `prototype`) that the proxy would have to report.
  const target = function () {}.bind(null);
  return new Proxy(target, {
    get: (_, key) => {
      if (own !== undefined && typeof key === 'string' && Object.hasOwn(own, key)) return own[key];
      return key === '__esModule' && real === undefined ? esModule || undefined : Reflect.get(get(), key);
    },
    set: (_, key, value) => Reflect.set(get(), key, value),
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(get(), key);
      if (descriptor) descriptor.configurable = true; // the stand-in's own keys are not the module's
      return descriptor;
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(get(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(get(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
    apply: (_, self, args) => Reflect.apply(get() as (...a: unknown[]) => unknown, self, args),
    construct: (_, args) => Reflect.construct(get() as new (...a: unknown[]) => object, args),
  });
}
