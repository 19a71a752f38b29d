// Serves a built docs folder on loopback, as a static host would: under a base path (GitHub Pages serves a project's
// site under /<repo>/), GET and HEAD only, nothing outside the folder, and the site's 404.html for a missing page.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.yaml': 'application/yaml; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Idle keep-alive connections of a browser are closed after this long, so the server never holds one forever. */
const KEEP_ALIVE_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

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

/** A base path as a static host uses it: starts and ends with `/` (`/` alone for the site root). */
export function normaliseBasePath(base: string): string {
  if (!/^\/?[\w.~-]*(\/[\w.~-]+)*\/?$/.test(base)) throw new Error(`--base must be a URL path such as /my-repo/, got "${base}"`);
  const trimmed = base.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}/` : '/';
}

export interface DocsServerOptions {
  port?: number;
  host?: string;
  /** Serve the folder under this path, e.g. `/my-repo/` (default `/`). */
  basePath?: string;
}

export function startDocsServer(
  root: string,
  { port = 0, host = '127.0.0.1', basePath = '/' }: DocsServerOptions = {},
): Promise<{ server: Server; url: string }> {
  const base = normaliseBasePath(basePath);
  const notFoundPage = existsSync(`${root}/404.html`) ? readFileSync(`${root}/404.html`) : undefined;
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const file = url.startsWith(base) ? fileFor(root, `/${url.slice(base.length)}`) : undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (!file || !existsSync(file) || !statSync(file).isFile()) {
      if (notFoundPage)
        res.writeHead(404, { 'Content-Type': CONTENT_TYPES['.html']! }).end(req.method === 'HEAD' ? undefined : notFoundPage);
      else res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    } else {
      res.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      if (!address || typeof address === 'string') return reject(new Error('docs server has no TCP address'));
      resolveStart({ server, url: `http://${host}:${address.port}${base}` });
    });
  });
}
