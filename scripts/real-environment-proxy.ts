// `npm run proxy:real-environment`: puts contract-tests/fixtures/real-environment-proxy.ts in front of a running
// sandbox (or any origin), so a client or a contract run sees a staging environment behind an API gateway: distance,
// a rate limit, an identity provider's limit as Okta applies it (on one path prefix), transient 503s, dropped connections, connections closed when idle without a word, https with a
// certificate of a private CA, a wrapped fleet list, another Content-Type. Prints the behaviours
// to stderr and "proxy ready on <origin>" to stdout; on SIGINT/SIGTERM prints what it did and stops.
import {
  checkOptions,
  describeOptions,
  PRESET_NAMES,
  type PresetName,
  type RealEnvironmentOptions,
  type RealEnvironmentProxy,
  startRealEnvironmentProxy,
  withPreset,
} from '../contract-tests/fixtures/real-environment-proxy.ts';
import { readFileSync } from 'node:fs';
import { integerOption, isMainModule, listenFailure, parseCommandLine, usageError } from '../config/cli.ts';

const DEFAULT_UPSTREAM = 'http://127.0.0.1:4020';
const DEFAULT_PORT = 4030;
const DEFAULT_THROTTLE = { burst: 20, perSecond: 50, retryAfterSeconds: 1 };
const DEFAULT_OKTA = { pathPrefix: '/idp', perSecond: 20, burst: 10 };

const CLI = {
  command: 'npm run proxy:real-environment --',
  summary:
    'Puts a proxy that behaves like a staging environment behind an API gateway in front of a running sandbox (or any ' +
    'origin). Every behaviour is off unless a preset or an option turns it on; options win over the preset.',
  options: {
    upstream: { type: 'string', value: 'ORIGIN', description: 'Origin to forward to (scheme, host, port).', default: DEFAULT_UPSTREAM },
    port: { type: 'string', value: 'N', description: 'Port to listen on; 0 picks a free one.', default: String(DEFAULT_PORT) },
    host: { type: 'string', value: 'HOST', description: 'Address to listen on.', default: '127.0.0.1' },
    preset: { type: 'string', value: 'NAME', description: `Start from a named set of behaviours: ${PRESET_NAMES.join(', ')}.` },
    'latency-ms': { type: 'string', value: 'N', description: 'Delay every request by N ms (0 turns the delay off).' },
    burst: { type: 'string', value: 'N', description: `Throttle: requests allowed at once (default ${DEFAULT_THROTTLE.burst}).` },
    'per-second': {
      type: 'string',
      value: 'N',
      description: `Throttle: requests allowed per second after the burst (default ${DEFAULT_THROTTLE.perSecond}).`,
    },
    'retry-after': {
      type: 'string',
      value: 'S',
      description: `Throttle: the Retry-After of a 429, in seconds (default ${DEFAULT_THROTTLE.retryAfterSeconds}).`,
    },
    'no-throttle': { type: 'boolean', description: "Turn the preset's throttle off." },
    'okta-prefix': {
      type: 'string',
      value: 'PATH',
      description: `Okta-style limit (429 with X-Rate-Limit-*, no Retry-After) on the paths under PATH (default ${DEFAULT_OKTA.pathPrefix}).`,
    },
    'okta-per-second': {
      type: 'string',
      value: 'N',
      description: `Okta-style limit: requests allowed per second (default ${DEFAULT_OKTA.perSecond}).`,
    },
    'okta-burst': {
      type: 'string',
      value: 'N',
      description: `Okta-style limit: requests allowed at once (default ${DEFAULT_OKTA.burst}).`,
    },
    'transient-503-every': { type: 'string', value: 'N', description: 'Answer about one idempotent request in N with 503 (0: off).' },
    'drop-every': { type: 'string', value: 'N', description: 'Drop the connection of about one idempotent request in N (0: off).' },
    'idle-close-ms': {
      type: 'string',
      value: 'N',
      description: 'Close a connection idle for N ms without a word (no Keep-Alive header announces it; 0: off).',
    },
    'tls-key': { type: 'string', value: 'FILE', description: 'Serve https with this private key (PEM), with --tls-cert.' },
    'tls-cert': { type: 'string', value: 'FILE', description: "Serve https with this certificate (PEM; e.g. one of your own CA's)." },
    'list-wrapper': { type: 'boolean', description: 'Answer the fleet list as {"items": [...], "count": n}.' },
    'fleet-content-type': {
      type: 'string',
      value: 'TYPE',
      description: 'Serve the fleet API\'s JSON answers as TYPE (e.g. "text/plain").',
    },
    'fleet-path-prefix': { type: 'string', value: 'PATH', description: 'Path of the fleet API at the upstream.', default: '/fleet' },
    'random-seed': { type: 'string', value: 'N', description: 'Start value of the generator behind the 503s and drops.' },
  },
  notes: [
    'Idempotent requests: GET, HEAD, and POSTs with a form body grant_type=client_credentials; never a milestone.',
    "Point your base URLs at the printed origin instead of the upstream's, keeping their paths.",
    'Examples:',
    '  npm run proxy:real-environment -- --preset gateway',
    '  npm run proxy:real-environment -- --preset okta   (20 a second, bursts of 10, on /idp only)',
    '  npm run proxy:real-environment -- --upstream http://127.0.0.1:4020 --latency-ms 200 --list-wrapper',
    '  npm run proxy:real-environment -- --preset idle-closing --tls-key server.key --tls-cert server.pem',
  ],
} as const;

function fail(message: string): never {
  process.stderr.write(`real-environment proxy: ${message}\n`);
  process.exit(1);
}

function options(values: ReturnType<typeof parseCommandLine<typeof CLI.options>>['values']): RealEnvironmentOptions {
  const preset = values.preset;
  if (preset !== undefined && !PRESET_NAMES.includes(preset as PresetName))
    usageError(CLI, `--preset must be one of ${PRESET_NAMES.join(', ')}, got "${preset}"`);
  const int = (name: keyof typeof CLI.options, min: number, max = 1_000_000_000) => {
    const raw = values[name];
    return typeof raw === 'string' ? integerOption(CLI, name, raw, min, max) : undefined;
  };
  const chosen: RealEnvironmentOptions = withPreset(preset as PresetName | undefined);
  const latency = int('latency-ms', 0, 60_000);
  if (latency !== undefined) chosen.latencyMs = latency;
  const burst = int('burst', 1);
  const perSecond = int('per-second', 1);
  const retryAfter = int('retry-after', 0, 86_400);
  if (values['no-throttle']) {
    if (burst !== undefined || perSecond !== undefined || retryAfter !== undefined)
      usageError(CLI, '--no-throttle cannot be combined with --burst, --per-second or --retry-after');
    delete chosen.throttle;
  } else if (burst !== undefined || perSecond !== undefined || retryAfter !== undefined) {
    const base = chosen.throttle ?? DEFAULT_THROTTLE;
    chosen.throttle = {
      burst: burst ?? base.burst,
      perSecond: perSecond ?? base.perSecond,
      retryAfterSeconds: retryAfter ?? base.retryAfterSeconds,
    };
  }
  const oktaPerSecond = int('okta-per-second', 1);
  const oktaBurst = int('okta-burst', 1);
  const oktaPrefix = values['okta-prefix'];
  if (oktaPerSecond !== undefined || oktaBurst !== undefined || oktaPrefix !== undefined) {
    const base = chosen.oktaLimit ?? DEFAULT_OKTA;
    chosen.oktaLimit = {
      pathPrefix: oktaPrefix ?? base.pathPrefix,
      perSecond: oktaPerSecond ?? base.perSecond,
      burst: oktaBurst ?? base.burst,
    };
  }
  const every = (name: 'transient-503-every' | 'drop-every', key: 'transient503Every' | 'dropEvery') => {
    const n = int(name, 0);
    if (n === 0) delete chosen[key];
    else if (n !== undefined) chosen[key] = n;
  };
  every('transient-503-every', 'transient503Every');
  every('drop-every', 'dropEvery');
  const idle = int('idle-close-ms', 0, 60_000);
  if (idle === 0) delete chosen.idleCloseMs;
  else if (idle !== undefined) chosen.idleCloseMs = idle;
  if (values['list-wrapper']) chosen.listWrapper = true;
  if (values['fleet-content-type'] !== undefined) chosen.fleetContentType = values['fleet-content-type'];
  if (values['fleet-path-prefix'] !== undefined) chosen.fleetPathPrefix = values['fleet-path-prefix'];
  const seed = int('random-seed', 0, 0xffffffff);
  if (seed !== undefined) chosen.randomSeed = seed;
  try {
    checkOptions(chosen);
  } catch (error) {
    usageError(CLI, (error as Error).message);
  }
  return chosen;
}

/** The key and certificate to serve https with: both files or neither. */
function tlsOf(keyFile: string | undefined, certFile: string | undefined): { key: string; cert: string } | undefined {
  if (keyFile === undefined && certFile === undefined) return undefined;
  if (keyFile === undefined || certFile === undefined) usageError(CLI, '--tls-key and --tls-cert go together');
  try {
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } catch (error) {
    usageError(CLI, `cannot read the TLS files: ${(error as Error).message}`);
  }
}

async function main(): Promise<void> {
  const { values } = parseCommandLine(CLI);
  const chosen = options(values);
  const port = integerOption(CLI, 'port', values.port ?? String(DEFAULT_PORT), 0, 65535);
  const host = values.host ?? '127.0.0.1';
  const upstream = values.upstream ?? DEFAULT_UPSTREAM;
  if (!URL.canParse(upstream)) usageError(CLI, `--upstream must be an origin such as ${DEFAULT_UPSTREAM}, got "${upstream}"`);
  const tls = tlsOf(values['tls-key'], values['tls-cert']);
  let proxy: RealEnvironmentProxy;
  try {
    proxy = await startRealEnvironmentProxy(upstream, chosen, { host, port, ...(tls ? { tls } : {}) });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (failure.syscall === 'listen') fail(listenFailure('proxy', host, port, failure).replace(/^proxy: /, ''));
    if (failure instanceof RangeError) usageError(CLI, failure.message);
    fail(failure.message);
  }
  const stop = () => {
    const { requests, forwarded, throttled, oktaRequests, oktaLimited, transient503, dropped, idleClosed } = proxy.stats();
    process.stderr.write(
      `real-environment proxy: ${requests} requests, ${forwarded} forwarded, ${throttled} throttled (429), ` +
        (chosen.oktaLimit ? `${oktaRequests} under the Okta-style limit (${oktaLimited} answered 429), ` : '') +
        `${transient503} answered 503, ${dropped} dropped, ${idleClosed} idle connections closed\n`,
    );
    void proxy.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stderr.write(`real-environment proxy: in front of ${new URL(upstream).origin}: ${describeOptions(chosen)}\n`);
  process.stdout.write(`proxy ready on ${proxy.origin}\n`);
}

if (isMainModule(import.meta.url)) await main();
