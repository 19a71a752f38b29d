// Runs one of the kit's TypeScript scripts as a single bundle of its own modules, without tsx's module hooks:
//   node scripts/run-bundled.mjs scripts/contract.ts [args]
// The scripts that run vitest in their own process (contract, contract:*, bench:contract) start this way. Under tsx, each
// of the script's hundred modules went through Node's module hooks, which run on a thread of their own and answer the
// main thread one module at a time: a live run against the sandbox costs 7% less CPU without them (paired runs, the
// two ways at once). esbuild (which tsx itself uses) bundles the script's own files once; packages stay imports.
// The bundle is kept in node_modules/.cache/lp-scripts, in a folder of this checkout's own (a bundle holds the absolute
// paths of its modules, and two checkouts may share one node_modules through a link), with the hash of every file it
// was made from, and made again when one of them changed. Each module keeps its own import.meta.url (paths relative to a module still hold), the
// script sees itself as process.argv[1], and a stack trace names the TypeScript files (source maps).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [entryArg, ...args] = process.argv.slice(2);
if (!entryArg) {
  console.error('usage: node scripts/run-bundled.mjs SCRIPT.ts [args]: SCRIPT.ts is the TypeScript script to run');
  process.exit(2);
}
const entry = resolve(entryArg);

const sha1 = (text) => createHash('sha1').update(text).digest('hex');
const cacheDir = join(root, 'node_modules/.cache/lp-scripts', sha1(root).slice(0, 12));
/** What else a bundle depends on than its inputs: this file (how it bundles) and the Node it targets. */
const recipe = sha1(`${readFileSync(fileURLToPath(import.meta.url))}\n${process.versions.node.split('.')[0]}`);

/** The hash of each file the bundle was made from, by its path in the repository, as the bundle read it. */
const bundled = new Map();

/** Every `import.meta.url` (and its dirname and filename) of a module, written as the module's own. */
const ownMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, ({ path }) => {
      const url = pathToFileURL(path).href;
      const source = readFileSync(path);
      bundled.set(relative(root, path), sha1(source));
      const contents = source
        .toString('utf8')
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(url))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(path)))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(path));
      return { contents, loader: /\.[cm]?ts$/.test(path) ? 'ts' : 'js', resolveDir: dirname(path) };
    });
  },
};

/** The files a bundle was made from still hold what they held (false when one changed or is gone). */
function fresh(manifestFile) {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (manifest.recipe !== recipe) return false;
    return Object.entries(manifest.inputs).every(([file, hash]) => sha1(readFileSync(join(root, file))) === hash);
  } catch {
    return false;
  }
}

async function bundle(outFile, manifestFile) {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [ownMeta],
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    write: false,
    outfile: outFile,
    logLevel: 'error',
  });
  mkdirSync(cacheDir, { recursive: true });
  // Written under a name of this process's, then renamed: two runs starting at once each see a whole bundle.
  const written = (file, text) => {
    writeFileSync(`${file}.${process.pid}.tmp`, text);
    renameSync(`${file}.${process.pid}.tmp`, file);
  };
  for (const output of result.outputFiles) written(output.path, output.text);
  // Inputs are named relative to absWorkingDir (root); one the plugin did not load (a JSON file) is read for its hash.
  const inputs = Object.fromEntries(
    Object.keys(result.metafile.inputs).map((file) => [file, bundled.get(file) ?? sha1(readFileSync(join(root, file)))]),
  );
  written(manifestFile, JSON.stringify({ recipe, inputs }));
}

const name = relative(root, entry)
  .replace(/[/\\]/g, '+')
  .replace(/\.[cm]?ts$/, '');
const outFile = join(cacheDir, `${name}.mjs`);
const manifestFile = join(cacheDir, `${name}.json`);
if (!fresh(manifestFile)) await bundle(outFile, manifestFile);
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(outFile).href);
