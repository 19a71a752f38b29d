// Dredd against a target, through Prism's validating proxy (errors on): dredd alone compares example keys; the proxy
// fails any response that breaks the schema. One Prism proxy per server address (service, identity provider, fleet),
// all in one child process with dredd (dredd-process.ts), whose output comes back here and is redacted.
// Targets: mock (starts Prism's mock), sandbox (starts the sandbox, optionally mutated), live (LP_* variables, .env).
// Proxies: HTTPS_PROXY, HTTP_PROXY and NO_PROXY as the suite and the client read them (src/connections.ts). Prism reaches
// an https upstream through the proxy in a CONNECT tunnel; a plain-http upstream it would hand to the proxy as a request
// to read, credentials included, so such a document is not run. dredd's own requests go to Prism on loopback, direct.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../spec-core/apis.ts';
import { startMock, startSandbox, type TargetServer } from '../runner/target-server.ts';
import { redactorFromEnvironment } from '../send/redact.ts';
import type { TargetName } from '../send/target.ts';
import { loadDotenv } from '../../config/environment.ts';
import { writeDreddOperations } from './dredd-operations.ts';
import { displayProxy, proxyFor, proxySettings } from '../../src/connections.ts';
import { writeDreddDocuments } from './dredd-documents.ts';
import { RESULT_PREFIX, type DreddPlanItem } from './dredd-process.ts';

const DREDD_TIMEOUT_MS = 300_000;
const MAX_OUTPUT_CHARS = 4_000_000;
export const DREDD_OUT_DIR = join(repoRoot, 'dist/contract/dredd');

export interface DreddResult {
  name: string;
  passing: number;
  failing: number;
  errors: number;
  skipped: number;
  total: number;
  seconds: number;
}

export interface DreddRun {
  results: DreddResult[];
  /** The redacted output of the run (dredd's and the proxies' lines, without the result lines). */
  output: string;
  /** Documents left out, with why (their base URL is not set). */
  notRun: string[];
}

/** Reads the child's result lines; a document without one counts as an error (the process died or timed out). */
export function parseResults(output: string, names: string[]): DreddResult[] {
  const found = new Map<string, DreddResult>();
  for (const line of output.split('\n')) {
    if (!line.startsWith(RESULT_PREFIX)) continue;
    const r = JSON.parse(line.slice(RESULT_PREFIX.length)) as {
      name: string;
      tests: number;
      passes: number;
      failures: number;
      errors: number;
      skipped: number;
      seconds: number;
    };
    found.set(r.name, {
      name: r.name,
      passing: r.passes,
      failing: r.failures,
      errors: r.errors,
      skipped: r.skipped,
      total: r.tests,
      seconds: r.seconds,
    });
  }
  return names.map((name) => found.get(name) ?? { name, passing: 0, failing: 0, errors: 1, skipped: 0, total: 0, seconds: 0 });
}

/** Runs every document whose base URL `env` sets against the target those settings describe. */
export async function dreddAgainst(target: TargetName, env: Record<string, string | undefined>, outDir = DREDD_OUT_DIR): Promise<DreddRun> {
  const redactor = redactorFromEnvironment(env);
  const plan: DreddPlanItem[] = [];
  const notRun: string[] = [];
  const proxies = proxySettings();
  for (const document of writeDreddDocuments(outDir)) {
    const upstream = env[document.baseVariable];
    const upstreamProxy = upstream && URL.canParse(upstream) ? proxyFor(upstream, proxies) : undefined;
    if (!upstream) notRun.push(`${document.name} skipped: needs ${document.baseVariable} (not set)`);
    else if (upstreamProxy && new URL(upstream).protocol === 'http:')
      notRun.push(
        `${document.name} skipped: ${document.baseVariable} is plain http through the proxy ${displayProxy(upstreamProxy)}, to which Prism would hand every request to read, credentials included: use https, or list the host in NO_PROXY`,
      );
    else
      plan.push({
        name: document.name,
        file: document.file,
        proxyFile: document.proxyFile,
        upstream,
        xunit: join(outDir, `${document.name}.xml`),
      });
  }
  if (plan.length === 0) return { results: [], output: '', notRun };
  // What the hooks know of each operation, from the registry (they read it; they keep no list of their own).
  const operationsFile = join(outDir, 'operations.json');
  writeDreddOperations(operationsFile);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'contract-tests/dredd/dredd-process.ts'), JSON.stringify(plan)],
    {
      cwd: repoRoot,
      // dredd's requests go to Prism on loopback: never through a proxy (its `request` reads the variables too).
      env: {
        ...process.env,
        ...env,
        LP_CONTRACT_TARGET: target,
        LP_DREDD_OPERATIONS: operationsFile,
        NO_PROXY: proxies.noProxy,
        no_proxy: proxies.noProxy,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let raw = '';
  const collect = (chunk: Buffer) => {
    raw += chunk.toString();
    // Bounded: the latest lines (the result lines come last), cut at a line start so no partial credential remains.
    if (raw.length > MAX_OUTPUT_CHARS) raw = raw.slice(raw.indexOf('\n', raw.length - MAX_OUTPUT_CHARS) + 1);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const timer = setTimeout(() => child.kill('SIGKILL'), DREDD_TIMEOUT_MS);
  await new Promise<void>((resolve) => child.once('close', () => resolve()));
  clearTimeout(timer);
  // Redacted as a whole, so a credential split between two chunks of the pipe is still found.
  const output = redactor.redact(raw);
  const results = parseResults(
    output,
    plan.map((item) => item.name),
  );
  return {
    results,
    output: output
      .split('\n')
      .filter((line) => !line.startsWith(RESULT_PREFIX))
      .join('\n'),
    notRun,
  };
}

export interface DreddOptions {
  target: TargetName;
  /** Sandbox only: start it with this injected contract violation. */
  mutation?: string;
  /** Print the notable lines while it runs (default true). */
  echo?: boolean;
}

/** `npm run dredd`: starts the target (mock or sandbox) or reads the live settings, runs dredd, and gives the verdict. */
export async function runDredd(options: DreddOptions): Promise<{ exitCode: number; run: DreddRun; line: string }> {
  const echo = options.echo ?? true;
  let server: TargetServer | undefined;
  try {
    let env: Record<string, string | undefined>;
    if (options.target === 'live') {
      loadDotenv();
      env = process.env;
    } else {
      server = options.target === 'mock' ? await startMock() : await startSandbox({ mutation: options.mutation });
      env = server.env;
    }
    const started = performance.now();
    const run = await dreddAgainst(options.target, env);
    if (echo) {
      for (const line of run.notRun) console.log(`dredd: ${line}`);
      const notable = run.output.split('\n').filter((line) => /fail|error|skip|complete/i.test(line));
      if (notable.length) console.log(notable.join('\n'));
    }
    const sum = (key: 'passing' | 'failing' | 'errors' | 'skipped' | 'total') => run.results.reduce((n, r) => n + r[key], 0);
    const line =
      `dredd: target ${options.target}: ${sum('passing')} passing, ${sum('failing')} failing, ${sum('errors')} errors, ${sum('skipped')} skipped ` +
      `of ${sum('total')} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s; xunit files in ${DREDD_OUT_DIR}`;
    return { exitCode: sum('failing') + sum('errors') === 0 && run.results.length > 0 ? 0 : 1, run, line };
  } finally {
    await server?.stop();
  }
}
