// Starts `scripts/docs-serve.ts` as a real process on a free loopback port (tools/processes.ts) and stops it again,
// so the browser test reads the docs exactly as `npm run docs:serve` serves them.
import { startServer } from '../../tools/processes.ts';
import { testWaitMs } from '../../config/test-waits.ts';

export interface DocsServerProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startDocsServerProcess(timeoutMs = testWaitMs(20_000)): Promise<DocsServerProcess> {
  const server = await startServer({
    script: 'scripts/docs-serve.ts',
    args: ['--port', '0'],
    ready: /Serving dist\/docs at (http:\/\/127\.0\.0\.1:\d+\/)/,
    readyTimeoutMs: timeoutMs,
  });
  return { url: server.readyMatch![1]!, stop: async () => void (await server.stop()) };
}
