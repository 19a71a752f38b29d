// One process for a whole dredd run against one target (run-dredd.ts starts it): a Prism validating proxy per server
// address, started side by side in this process, then dredd's Node API over each document in turn. One process
// instead of a Prism CLI and a dredd CLI per document: Prism and dredd load once (each load is about a CPU-second).
// Its output goes to the parent, which redacts it; the LP_* settings come in its environment, never on its argv.
import { createRequire } from 'node:module';
import { isMainModule } from '../../config/cli.ts';
import { proxyFor } from '../../src/connections.ts';
import { freePort } from '../../tools/free-port.ts';

const require = createRequire(import.meta.url);

/** What the parent asks for: argv[2], JSON. */
export interface DreddPlanItem {
  name: string;
  /** The OpenAPI 3.0 copy dredd reads. */
  file: string;
  /** The OpenAPI 3.1 copy Prism's proxy validates against. */
  proxyFile: string;
  upstream: string;
  /** Where dredd's xunit report goes. */
  xunit: string;
}

export interface DreddStats {
  tests: number;
  passes: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** The line that carries one document's counts back to the parent. */
export const RESULT_PREFIX = 'dredd-process result ';

type PrismServer = { close(): Promise<void> };
type CreatePrism = (options: Record<string, unknown>) => Promise<PrismServer | undefined>;
type DreddInstance = { run(callback: (error: Error | null, stats: DreddStats) => void): void };

const HOOKS = new URL('./hooks.cjs', import.meta.url).pathname;

/** The proxy checks responses only: dredd's negative transactions send invalid requests on purpose. */
async function startProxy(item: DreddPlanItem): Promise<{ url: string; server: PrismServer }> {
  const { createSingleProcessPrism } = require('@stoplight/prism-cli/dist/util/createServer.js') as {
    createSingleProcessPrism: CreatePrism;
  };
  const port = await freePort();
  const server = await createSingleProcessPrism({
    document: item.proxyFile,
    upstream: new URL(item.upstream),
    // HTTPS_PROXY and NO_PROXY of this process's environment (never the argv: a proxy URL may hold its password).
    upstreamProxy: proxyFor(item.upstream),
    errors: true,
    validateRequest: false,
    host: '127.0.0.1',
    port,
    cors: true,
    dynamic: false,
    multiprocess: false,
    verboseLevel: 'warn',
  });
  if (!server) throw new Error(`Prism proxy for ${item.name} did not start`);
  return { url: `http://127.0.0.1:${port}`, server };
}

function runDocument(item: DreddPlanItem, endpoint: string): Promise<DreddStats> {
  const Dredd = require('dredd') as new (config: Record<string, unknown>) => DreddInstance;
  const dredd = new Dredd({
    path: [item.file],
    endpoint,
    hookfiles: [HOOKS],
    loglevel: 'warning',
    color: false,
    reporter: ['xunit'],
    output: [item.xunit],
  });
  return new Promise((resolve, reject) => dredd.run((error, stats) => (error ? reject(error) : resolve(stats))));
}

async function main(plan: DreddPlanItem[]): Promise<void> {
  const proxies = await Promise.all(plan.map(startProxy));
  try {
    for (const [index, item] of plan.entries()) {
      const started = performance.now();
      let stats: DreddStats;
      try {
        stats = await runDocument(item, proxies[index]!.url);
      } catch (error) {
        process.stdout.write(`dredd: ${item.name}: ${(error as Error).message}\n`);
        stats = { tests: 0, passes: 0, failures: 0, errors: 1, skipped: 0 };
      }
      const { tests, passes, failures, errors, skipped } = stats;
      process.stdout.write(
        `${RESULT_PREFIX}${JSON.stringify({ name: item.name, tests, passes, failures, errors, skipped, seconds: (performance.now() - started) / 1000 })}\n`,
      );
    }
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.server.close()));
  }
}

if (isMainModule(import.meta.url)) {
  try {
    await main(JSON.parse(process.argv[2] ?? '[]') as DreddPlanItem[]);
    // Dredd leaves sockets and timers behind; the work is done.
    process.exit(0);
  } catch (error) {
    process.stderr.write(`dredd: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
