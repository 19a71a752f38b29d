// `npm run docs:serve`: serves dist/docs/ on loopback for a look in a browser (see tools/docs/serve.ts), building the
// docs first when there are none (a fresh clone), as `npm run docs` would. The browser test starts this same script as a
// process and reads the address from its first line of output (the note of a build goes to stderr).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { integerOption, listenFailure, parseCommandLine } from '../config/cli.ts';
import { normaliseBasePath, startDocsServer } from '../tools/docs/serve.ts';

const spec = {
  command: 'npm run docs:serve --',
  summary: 'Serves dist/docs/ (built by npm run docs; built first when missing) on 127.0.0.1 and prints its URL.',
  options: {
    port: { type: 'string', value: 'N', description: 'Port; 0 picks a free one.', default: '0' },
    base: { type: 'string', value: 'PATH', description: 'Serve under this path, as GitHub Pages does (/<repo>/).', default: '/' },
    dir: { type: 'string', value: 'DIR', description: 'Serve this folder instead of dist/docs/ (one with an index.html, never built).' },
  },
} as const;
const { values } = parseCommandLine(spec);
const port = integerOption(spec, 'port', values.port ?? '0', 0, 65535);
let basePath: string;
try {
  basePath = normaliseBasePath(values.base ?? '/');
} catch (error) {
  console.error(`${spec.command}: ${(error as Error).message}`);
  process.exit(2);
}

const root = values.dir !== undefined ? resolve(values.dir) : resolve(repoRoot, 'dist/docs');
if (values.dir !== undefined && !existsSync(`${root}/index.html`)) {
  console.error(`${spec.command}: --dir ${values.dir} has no index.html`);
  process.exit(2);
}
if (!existsSync(`${root}/index.html`)) {
  console.error('npm run docs:serve: dist/docs/index.html is missing, building the docs as `npm run docs` does');
  try {
    // Loaded only here: the build's modules cost more to load than the server's.
    const { buildDocs } = await import('../tools/docs/build.ts');
    await buildDocs({ outDir: root });
  } catch (error) {
    console.error(`npm run docs:serve: building the docs failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
try {
  const { server, url } = await startDocsServer(root, { port, basePath });
  // One stop however many signals ask for it (a Ctrl-C reaches this process from the terminal and again from npm, which
  // passes SIGINT and SIGTERM on to its script; package.json starts it with `exec`, so there is no shell in between).
  // In place before the line below: whoever reads it may stop the server at once.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => process.exit(0));
    server.closeAllConnections(); // keep-alive connections of an open browser would hold close() forever
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`Serving ${values.dir ?? 'dist/docs'} at ${url} (Ctrl-C to stop)`);
} catch (error) {
  console.error(listenFailure('npm run docs:serve', '127.0.0.1', port, error as NodeJS.ErrnoException));
  process.exit(1);
}
