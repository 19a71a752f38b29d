// config/cli.ts as a user meets it: a real script run with tsx, and a real busy port.
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listenFailure } from '../../config/cli.ts';

const script = fileURLToPath(new URL('./fixtures/echo-cli.ts', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8' });

describe('parseCommandLine', () => {
  it('reads the options and their defaults', () => {
    const result = run('--port', '0', '-v');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ port: 0, verbose: true });
    expect(JSON.parse(run().stdout)).toEqual({ port: 4010, verbose: false });
  });

  it('answers --help with every option, its default and exit 0', () => {
    const result = run('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: echo-cli \[options\]/);
    expect(result.stdout).toMatch(/--port N +Port to listen on\. \(default: 4010\)/);
    expect(result.stdout).toMatch(/-v, --verbose +Say more\./);
    expect(result.stdout).toMatch(/-h, --help/);
  });

  it('refuses an unknown option in one line naming it, with exit 2 and no stack', () => {
    const result = run('--prot', '1');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^echo-cli: Unknown option '--prot'/);
    expect(result.stderr).toContain('echo-cli --help');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a bad integer naming the option and the value', () => {
    const result = run('--port', 'eighty');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--port must be an integer from 0 to 65535, got "eighty"');
  });
});

describe('isMainModule', () => {
  it('is false when the script is imported, so importing it prints nothing', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', `await import(${JSON.stringify(script)})`], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  });
});

describe('listenFailure', () => {
  it('turns a real EADDRINUSE into one line that suggests --port', async () => {
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
    const port = (first.address() as { port: number }).port;
    const second = createServer();
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    first.close();
    const line = listenFailure('sandbox', '127.0.0.1', port, error);
    expect(line).toBe(
      `sandbox: port ${port} on 127.0.0.1 is already in use. Stop the other process, or pass --port N (--port 0 picks a free port).`,
    );
  });
});
