// Starts `scripts/docs-serve.ts` as a real process on a free loopback port and stops it again,
// so the browser test reads the docs exactly as `npm run docs:serve` serves them.
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from '../../spec-core/apis.ts';

export interface DocsServerProcess {
  url: string;
  stop(): Promise<void>;
}

export function startDocsServerProcess(timeoutMs = 20_000): Promise<DocsServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/docs-serve.ts', '--port', '0'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let output = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`docs server did not start: ${why}\n${output}`)));
    };
    const timer = setTimeout(() => fail(`no address within ${timeoutMs} ms`), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Serving dist\/docs at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(`exited with code ${code}`));
  });
}
