// Serves dist/docs/ on loopback for a look in a browser (`npm run docs:serve -- [--port N]`; port 0, the default, picks a free one).
// The browser test starts this same script as a process and reads the address from its first line of output.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../spec-core/apis.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Resolves a URL path inside root, or undefined when it would escape root (../ or encoded variants). */
function fileFor(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/');
  } catch {
    return undefined;
  }
  const file = resolve(root, `.${decoded.endsWith('/') ? `${decoded}index.html` : decoded}`);
  return file === root || file.startsWith(`${root}${sep}`) ? file : undefined;
}

export function startDocsServer(root: string, port = 0, host = '127.0.0.1'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const file = fileFor(root, req.url ?? '/');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (!file || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    } else {
      res.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    }
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      if (!address || typeof address === 'string') return reject(new Error('docs server has no TCP address'));
      resolveStart({ server, url: `http://${host}:${address.port}/` });
    });
  });
}

function parsePort(argv: string[]): number {
  const i = argv.indexOf('--port');
  if (i === -1) return 0;
  const value = Number(argv[i + 1]);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`--port takes a TCP port number from 0 to 65535, got "${argv[i + 1] ?? ''}"`);
  }
  return value;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const root = resolve(repoRoot, 'dist/docs');
  if (!existsSync(`${root}/index.html`)) {
    console.error('dist/docs/index.html is missing: run `npm run docs` first.');
    process.exit(1);
  }
  const { server, url } = await startDocsServer(root, parsePort(process.argv.slice(2)));
  console.log(`Serving dist/docs at ${url} (Ctrl-C to stop)`);
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections(); // keep-alive connections of an open browser would hold close() forever
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
