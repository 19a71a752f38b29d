// Runs dredd against a target through Prism's validating proxy (`prism proxy --errors`), one proxy per server address:
// dredd alone compares example keys; the proxy fails any response that breaks the schema. Targets: mock (default), live.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../spec-core/apis.ts';
import { writeDreddDocuments, type DreddDocument } from '../contract-tests/dredd/dredd-documents.ts';
import { startMock, startSandbox, type RunningServer } from '../contract-tests/runner/target-server.ts';
import { Redactor } from '../contract-tests/support/redact.ts';
import { SECRET_VARIABLES, type TargetName } from '../contract-tests/support/target.ts';
import { loadDotenv, parseTargetName } from '../tools/environment.ts';
import { stopProcess } from '../tools/processes.ts';
import { freePort } from '../tools/free-port.ts';

const PROXY_READY_MS = 60_000;
const DREDD_TIMEOUT_MS = 300_000;
const outDir = join(repoRoot, 'dist/contract/dredd');

export interface DreddResult {
  name: string;
  passing: number;
  failing: number;
  errors: number;
  skipped: number;
  total: number;
  seconds: number;
  output: string;
}

async function stop(child: ChildProcess): Promise<void> {
  await stopProcess(child);
}

/** The proxy checks responses only: dredd's negative transactions send invalid requests on purpose. */
async function startProxy(document: DreddDocument, upstream: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const prism = join(repoRoot, 'node_modules/@stoplight/prism-cli/dist/index.js');
  const child = spawn(process.execPath, [prism, 'proxy', document.proxyFile, upstream, '--errors', '--validate-request=false', '-h', '127.0.0.1', '-p', String(port)], {
    cwd: repoRoot,
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + PROXY_READY_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return { url, child };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await stop(child);
  throw new Error(`Prism proxy for ${document.name} did not start within ${PROXY_READY_MS / 1000}s`);
}

function runDredd(document: DreddDocument, proxyUrl: string, env: Record<string, string | undefined>, target: TargetName, redactor: Redactor): Promise<DreddResult> {
  const started = performance.now();
  const args = [
    document.file,
    proxyUrl,
    `--hookfiles=${join(repoRoot, 'contract-tests/dredd/hooks.cjs')}`,
    '--loglevel=warning',
    '--color=false',
    '--reporter=xunit',
    `--output=${join(outDir, `${document.name}.xml`)}`,
  ];
  const child = spawn(join(repoRoot, 'node_modules/.bin/dredd'), args, {
    cwd: repoRoot,
    env: { ...process.env, ...env, LP_CONTRACT_TARGET: target },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += redactor.redact(chunk.toString()));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const timer = setTimeout(() => void stop(child), DREDD_TIMEOUT_MS);
  return new Promise((resolve) => {
    child.once('exit', () => {
      clearTimeout(timer);
      const summary = /complete: (.*) total/.exec(output)?.[1] ?? '';
      const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
      resolve({
        name: document.name,
        passing: count('passing'),
        failing: count('failing'),
        errors: count('errors') + (summary ? 0 : 1),
        skipped: count('skipped'),
        total: Number(/(\d+) total/.exec(output)?.[1] ?? 0),
        seconds: (performance.now() - started) / 1000,
        output,
      });
    });
  });
}

/** Runs every document against a target whose LP_* settings are known; used by this script and the benchmark. */
export async function dreddAgainst(target: TargetName, env: Record<string, string | undefined>, echo = true): Promise<DreddResult[]> {
  const redactor = new Redactor(SECRET_VARIABLES.map((name) => env[name]));
  const results: DreddResult[] = [];
  for (const document of writeDreddDocuments(outDir)) {
    const upstream = env[document.baseVariable];
    if (!upstream) {
      if (echo) console.log(`dredd: ${document.name} skipped: needs ${document.baseVariable} (not set)`);
      continue;
    }
    const proxy = await startProxy(document, upstream);
    try {
      const result = await runDredd(document, proxy.url, env, target, redactor);
      results.push(result);
      if (echo) {
        process.stdout.write(result.output.split('\n').filter((line) => /fail|error|skip|complete/i.test(line)).join('\n') + '\n');
      }
    } finally {
      await stop(proxy.child);
    }
  }
  return results;
}

async function main(): Promise<number> {
  let target: TargetName;
  let mutation: string | undefined;
  try {
    const { values } = parseArgs({ options: { target: { type: 'string', default: 'mock' }, mutation: { type: 'string' } } });
    target = parseTargetName(values.target, '--target');
    if (values.mutation && target !== 'sandbox') throw new Error('--mutation needs --target sandbox');
    mutation = values.mutation;
  } catch (error) {
    console.error(`dredd: ${(error as Error).message}\nusage: tsx scripts/dredd.ts [--target mock|sandbox|live] [--mutation ID (sandbox)]`);
    return 2;
  }
  let server: RunningServer | undefined;
  try {
    let env: Record<string, string | undefined> = process.env;
    if (target === 'live') {
      loadDotenv();
      env = process.env;
    } else {
      server = target === 'mock' ? await startMock() : await startSandbox({ mutation });
      env = server.env;
    }
    const started = performance.now();
    const results = await dreddAgainst(target, env);
    const sum = (key: 'passing' | 'failing' | 'errors' | 'skipped' | 'total') => results.reduce((n, r) => n + r[key], 0);
    console.log(
      `dredd: target ${target}: ${sum('passing')} passing, ${sum('failing')} failing, ${sum('errors')} errors, ${sum('skipped')} skipped of ${sum('total')} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s; xunit files in ${outDir}`,
    );
    return sum('failing') + sum('errors') === 0 && results.length > 0 ? 0 : 1;
  } finally {
    await server?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main().catch((error: unknown) => {
    console.error(`dredd: ${(error as Error).message}`);
    return 1;
  });
}
