// `npm run mock`: starts the Prism mock (tools/mock.ts) on one loopback port, prints the LP_* lines a client needs
// (base URLs and the placeholder credentials Prism accepts) and "mock ready", and stops it on SIGINT/SIGTERM: the guard's
// port first, then Prism (its child, in its process group), then the temp dir. package.json starts it with `exec`, so
// the signal npm passes on reaches this process (see test/tools/npm-script-signals.test.ts).
import { ensureBundles } from '../spec-core/bundles.ts';
import { integerOption, isMainModule, listenFailure, listenOptions, parseCommandLine } from '../config/cli.ts';
import { readVariable } from '../config/environment.ts';
import { type RunningMock, settingsLines, startPrismMock } from '../tools/mock.ts';

const CLI = {
  command: 'npm run mock --',
  summary:
    'Serves the three APIs from their specs with Prism on one loopback port, and prints the LP_* settings a client ' +
    'uses (base URLs and placeholder credentials: Prism accepts any value) followed by "mock ready".',
  options: {
    ...listenOptions('LP_MOCK_PORT', 4010),
    dynamic: { type: 'boolean', description: 'Answer with generated data instead of the documented examples.' },
    seed: { type: 'string', value: 'S', description: 'Seed of the generated data (with --dynamic; default logistics-partner).' },
  },
  notes: ["Prism's request log goes to stderr; stdout is a dotenv block you can source or save as .env."],
} as const;

function fail(message: string): never {
  process.stderr.write(`mock: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { values } = parseCommandLine(CLI);
  const port = integerOption(CLI, 'port', values.port ?? readVariable('LP_MOCK_PORT') ?? '4010', 0, 65535);
  const host = values.host ?? '127.0.0.1';
  try {
    ensureBundles((line) => process.stderr.write(`mock: ${line}\n`));
  } catch (error) {
    fail((error as Error).message);
  }
  // One stop, whatever asks for it and whenever: a Ctrl-C in a terminal reaches this process twice (from the terminal,
  // and from npm, which passes SIGINT and SIGTERM on to its script), and no signal may end it before Prism is stopped.
  // A signal while Prism starts aborts the start, which stops what has started.
  const starting = new AbortController();
  let mock: RunningMock | undefined;
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    if (!mock) return starting.abort();
    void mock.stop().then(() => process.exit(code));
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  try {
    mock = await startPrismMock({
      host,
      port,
      dynamic: values.dynamic === true,
      seed: values.seed,
      log: (line) => process.stderr.write(`${line}\n`),
      signal: starting.signal,
    });
  } catch (error) {
    if (starting.signal.aborted) process.exit(0);
    const failure = error as NodeJS.ErrnoException;
    // A busy port (or another listen error) is one line that says what to do; anything else names Prism's failure.
    fail(failure.syscall === 'listen' ? listenFailure('mock', host, port, failure).replace(/^mock: /, '') : failure.message);
  }
  void mock.unexpectedExit.then((how) => {
    process.stderr.write(`mock: Prism exited (${how})\n`);
    stop(1);
  });
  process.stdout.write(`${settingsLines(mock.baseUrl)}\nmock ready\n`);
}

if (isMainModule(import.meta.url)) await main();
