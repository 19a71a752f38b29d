// `npm run docs:serve` as a process: serves dist/docs on loopback, and nothing outside it.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDocsServerProcess, type DocsServerProcess } from './docs-server-process.ts';
import { testWaitMs } from '../../config/test-waits.ts';

let server: DocsServerProcess;

beforeAll(async () => {
  server = await startDocsServerProcess();
});
afterAll(() => server?.stop());

/** A raw request, so that the path reaches the server exactly as written (fetch would normalise `..`). */
function raw(method: string, path: string): Promise<{ status: number; type: string | undefined }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path, timeout: testWaitMs(5_000) }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] }));
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

describe('docs server', () => {
  it('listens on loopback and serves the landing page and each API page as HTML', async () => {
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    for (const path of ['/', '/index.html', '/token.html', '/carriers.html', '/fleet.html']) {
      await expect(raw('GET', path)).resolves.toEqual({ status: 200, type: 'text/html; charset=utf-8' });
    }
  });

  it('answers 404 for paths that leave dist/docs, plain or encoded', async () => {
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json', '/missing.html']) {
      expect((await raw('GET', path)).status, path).toBe(404);
    }
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await raw('POST', '/index.html')).status).toBe(405);
    expect((await raw('HEAD', '/index.html')).status).toBe(200);
  });
});
