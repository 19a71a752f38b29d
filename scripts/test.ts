// `npm test`: runs the checks of the kit a contributor runs before every commit, three steps at a time (`--jobs N` or
// LP_TEST_JOBS to change), stops at the first failure, and prints the wall time and CPU-seconds of each step.
// `npm run test:end-to-end` (`--end-to-end`) runs the rest, the end-to-end rehearsals that start whole programs (a
// browser, Redocly Respect, dredd with Prism, contract:live runs behind proxies, the injected violations, the package
// published to a throwaway registry): CI runs them after npm test (.ci/run), so CI gates on both. Three, on the 2 cores the project budgets for: the steps spend
// a good part of their time waiting (process starts, servers, timeouts: test:client uses about half its wall time in
// CPU), so a third step fills the cores that two would leave idle (measured on a quiet 2-core machine: three at a time
// 110.9 s for about 196 CPU-seconds, so the cores are nearly always busy; with pack:check and dredd still steps, two or
// three at a time took 131-133 s for about 230). A step's
// output is printed in one block when it ends, so steps never interleave their lines; with --jobs 1 the steps run one
// after another and stream their output live.
//
// Steps share files, so not every pair may overlap: generate:check rebuilds dist/openapi (`npm run bundle` deletes and
// rewrites it), which nearly every other step reads; it never overlaps a step that reads it. The readers rebuild the
// bundles only when openapi/ changed since they were built (spec-core/bundles.ts), which never happens after
// generate:check. Every other output has one writer among the steps (contract: dist/contract; contract:sandbox:
// dist/contract-sandbox; the rest write temp folders or folders no other step reads).
// Steps start in the order listed whenever those rules allow, so the early checks still fail first.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import { integerOption, parseCommandLine } from '../config/cli.ts';
import { readVariable } from '../config/environment.ts';

type Step = {
  name: string;
  /** Extra environment variables for the npm script. */
  env?: Record<string, string>;
  /** Shared outputs the step rewrites: nothing else that reads or rewrites them may run meanwhile. */
  writes?: string[];
  /** Shared outputs the step reads: nothing that rewrites them may run meanwhile. */
  reads?: string[];
};

/** dist/openapi/ (`npm run bundle` deletes and rewrites it). */
const BUNDLES = 'bundles';

const STEPS: Step[] = [
  // The specs and the code, statically (generate:check bundles, so the bundles exist for every reader after it).
  { name: 'lint' },
  // The direction of the imports: nothing imports scripts/, spec-core imports nothing of the kit, src/ stays self-contained.
  { name: 'lint:deps' },
  // Biome: the formatting and the recommended lint rules of the TypeScript (biome.json).
  { name: 'lint:code' },
  // The GitHub workflows: their schema, and write permissions only on the jobs that need them.
  { name: 'lint:workflows' },
  { name: 'generate:check', writes: [BUNDLES] },
  // The longest first once the bundles exist (CPU-seconds in a run of npm test from a fresh clone on 2 cores: contract
  // 37, test:sandbox 31, typecheck 29, contract:sandbox 25, test:batch 14, test:client 8), so that short steps end
  // the run rather than a long one alone (test:batch, first from when it was the longest, is short since its program
  // tests moved to test:programs; the three runs measured with this order took 90 to 93 s).
  // Four small projects in one vitest run (one start instead of four): the spec tests (test:spec), the release rules
  // (test:package), the command-line helpers and spec-diff (test:tools); their tests that start programs are
  // test:programs, an end-to-end step (config/test-tiers.ts).
  { name: 'test:batch', reads: [BUNDLES] },
  // The suite against the mock, with its self-tests (the live runs of self/ start sandboxes of their own).
  { name: 'contract', reads: [BUNDLES] },
  { name: 'test:sandbox', reads: [BUNDLES] },
  // typecheck and test:client read no bundle, but wait for generate:check like the rest: started at once, they took two
  // of the three slots while the bundles were built and held back the longest steps (measured 122 s against 1xx s).
  { name: 'typecheck', reads: [BUNDLES] },
  // Its type tests (*.test-d.ts) are compiled by the typecheck step too (the root tsconfig includes test/, and a failed
  // expectTypeOf or an unused @ts-expect-error is a compile error there); vitest would run a second tsc over them.
  { name: 'test:client', env: { LP_TYPE_TESTS_IN_TYPECHECK: '1' }, reads: [BUNDLES] },
  // The whole suite, strict, against the sandbox (reports in dist/contract-sandbox, so each output keeps one writer).
  { name: 'contract:sandbox', env: { LP_CONTRACT_OUT: 'dist/contract-sandbox' }, reads: [BUNDLES] },
];

// The end-to-end rehearsals: each starts whole programs and takes most of its time in them, and together they would
// take npm test far past two minutes on two cores (their CPU-seconds: README, "Tests"). They read the bundles npm test
// built (or build them once, under a lock, when openapi/ changed: spec-core/bundles.ts), and each writes its own output.
const END_TO_END_STEPS: Step[] = [
  // Every injected contract violation must be caught (strict): the proof that the suite can fail.
  { name: 'contract:mutation' },
  // The tests that start programs (config/test-tiers.ts): every script's --help and bad arguments, npm's signals,
  // Redocly lint on broken specs, the version rules, the partner tools on the bundles, newman, the sandbox and the
  // mock as processes, the client's browser login and its connections through proxies.
  { name: 'test:programs' },
  // The docs built offline, and in Chromium (Debian's, which .ci/run installs): every page, the samples run.
  { name: 'test:docs' },
  // The Arazzo workflows run by Redocly Respect against a sandbox, the mock and broken targets, and within contract:live.
  { name: 'test:workflows' },
  // The suite's self-tests through whole contract:live runs: sandboxes behind the contradicting, real-environment and
  // forward proxies, with certificates of a CA made for the run (contract-tests/self/end-to-end/).
  { name: 'contract:end-to-end' },
  // The package as another repo installs it: staged and published as a release is, to a throwaway local registry,
  // installed by name, compiled in three configurations, run against the sandbox, its README's five minutes followed.
  { name: 'pack:check' },
  // dredd with Prism's validating proxies against the sandbox (test/dredd/) and against the mock (every documented
  // status of every operation).
  { name: 'test:dredd' },
  { name: 'dredd' },
];

/** The steps that need the bundles generate:check builds: those after it in its list. */
const needsBundlesFirst = (steps: Step[]) =>
  new Set(
    steps
      .slice(steps.findIndex((s) => s.name === 'generate:check') + 1)
      .filter((s) => s.reads && steps.some((t) => t.name === 'generate:check'))
      .map((s) => s.name),
  );

const CLI = {
  command: 'npm test --',
  summary: 'Runs every check of the kit, a few steps at a time; stops at the first failure and prints the wall time of each step.',
  options: {
    'end-to-end': {
      type: 'boolean',
      description:
        'The end-to-end rehearsals instead (npm run test:end-to-end): mutation, docs in Chromium, workflows, live runs behind proxies, the package, dredd.',
    },
    jobs: {
      type: 'string',
      value: 'N',
      description: "Steps running side by side, 1 to 8 (default: LP_TEST_JOBS, else 3); 1 streams each step's output live.",
    },
  },
} as const;

function options(): { limit: number; steps: Step[]; command: string } {
  const { values } = parseCommandLine(CLI);
  const endToEnd = values['end-to-end'] === true;
  return {
    limit: integerOption(CLI, 'jobs', values.jobs ?? readVariable('LP_TEST_JOBS') ?? '3', 1, 8),
    steps: endToEnd ? END_TO_END_STEPS : STEPS,
    command: endToEnd ? 'npm run test:end-to-end' : 'npm test',
  };
}

const touches = (these: string[] | undefined, those: string[] | undefined) => (these ?? []).some((name) => (those ?? []).includes(name));

function conflicts(step: Step, running: Step): boolean {
  return touches(step.writes, running.writes) || touches(step.writes, running.reads) || touches(step.reads, running.writes);
}

type Outcome = { step: Step; seconds: number; cpu: number | undefined; status: 'ok' | 'FAILED' | 'stopped' };

const SCRIPTS = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The command line of an npm script; a step without one is a mistake in STEPS. */
function scriptOf(name: string): string {
  const script = SCRIPTS[name];
  if (!script) throw new Error(`npm test: package.json has no script "${name}"`);
  return script;
}

function runStep(
  step: Step,
  live: boolean,
  started: (child: ChildProcess) => void,
): Promise<{ code: number; output: string; seconds: number; cpu: number | undefined }> {
  const begin = performance.now();
  // The step's npm script, run as `npm run` would run it (sh, with node_modules/.bin on the PATH) but without starting
  // npm itself for each step (half a CPU-second each). Own process group, so a failure elsewhere can stop the step with
  // everything it started.
  // Then the shell's `times` on a pipe of its own: the CPU time of everything the step started and waited for.
  const child = spawn('sh', ['-c', `{ ${scriptOf(step.name)}\n}; status=$?; times >&3; exit $status`], {
    env: { ...process.env, ...step.env, PATH: `${join(repoRoot, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` },
    cwd: repoRoot,
    stdio: live ? ['inherit', 'inherit', 'inherit', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: !live,
  });
  started(child);
  let output = '';
  let times = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  (child.stdio[3] as NodeJS.ReadableStream | null)?.on('data', (chunk: Buffer) => (times += chunk.toString()));
  return new Promise((resolve) => {
    let seconds: number | undefined;
    const finish = (code: number) =>
      resolve({ code, output, seconds: seconds ?? (performance.now() - begin) / 1000, cpu: cpuSecondsOf(times) });
    child.once('error', (error) => {
      output += `\nnpm test: could not start "npm run ${step.name}": ${error.message}\n`;
      finish(1);
    });
    child.once('exit', (code, signal) => {
      seconds = (performance.now() - begin) / 1000;
      const status = code ?? (signal ? 1 : 0);
      if (live) return finish(status);
      // The rest of the output arrives with 'close'; a process the step left behind could hold the pipes open forever.
      const lingering = setTimeout(() => {
        output += `\nnpm test: a process started by "npm run ${step.name}" outlived it and was stopped\n`;
        signalGroup(child.pid!, 'SIGKILL');
        finish(status);
      }, 3000);
      child.once('close', () => {
        clearTimeout(lingering);
        finish(status);
      });
    });
  });
}

/** User and system CPU-seconds of the children from the shell's `times` (its second line: "1m2.5s 0m3.25s"). */
function cpuSecondsOf(times: string): number | undefined {
  const line = times.trim().split('\n')[1];
  const parts = line?.match(/(\d+)m([\d.]+)s/g);
  if (parts?.length !== 2) return undefined;
  return parts.reduce((total, part) => {
    const [, minutes, seconds] = /(\d+)m([\d.]+)s/.exec(part)!;
    return total + Number(minutes) * 60 + Number(seconds);
  }, 0);
}

const cpuText = (cpu: number | undefined) => (cpu === undefined ? '-' : cpu.toFixed(1)).padStart(7);

function table(outcomes: Outcome[], notRun: Step[]): string {
  const rows = [`${'step'.padEnd(22)} ${'wall'.padStart(7)}   ${'CPU'.padStart(7)}`];
  for (const o of outcomes) rows.push(`${o.step.name.padEnd(22)} ${o.seconds.toFixed(1).padStart(7)} s ${cpuText(o.cpu)} s  ${o.status}`);
  for (const step of notRun) rows.push(`${step.name.padEnd(22)} ${'-'.padStart(7)}   ${'-'.padStart(7)}    not run`);
  return rows.join('\n');
}

async function main(): Promise<number> {
  const { limit, steps, command: run } = options();
  for (const step of steps) scriptOf(step.name); // a misspelt step fails before anything runs
  const needsBundles = needsBundlesFirst(steps);
  const live = limit === 1;
  const begin = performance.now();
  const pending = [...steps];
  const running = new Map<Step, ChildProcess | undefined>();
  const done = new Set<string>();
  const outcomes: Outcome[] = [];
  let failed: Step | undefined;

  const startable = () =>
    pending.find(
      (step) =>
        !(needsBundles.has(step.name) && !done.has('generate:check')) && [...running.keys()].every((other) => !conflicts(step, other)),
    );

  // The steps run in their own process groups, which a Ctrl-C in the terminal does not reach: pass it on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopAll(running);
      process.exit(130);
    });
  }

  await new Promise<void>((finish) => {
    const schedule = () => {
      if (failed) {
        if (running.size === 0) finish();
        return;
      }
      for (let step = startable(); step && running.size < limit; step = startable()) {
        pending.splice(pending.indexOf(step), 1);
        const current = step;
        running.set(current, undefined);
        const command = `${Object.entries(current.env ?? {})
          .map(([name, value]) => `${name}=${value} `)
          .join('')}npm run ${current.name}`;
        console.log(live ? `\n=== ${command}` : `started  ${command}`);
        void runStep(current, live, (child) => running.set(current, child)).then(({ code, output, seconds, cpu }) => {
          running.delete(current);
          const stopped = failed !== undefined && code !== 0;
          outcomes.push({ step: current, seconds, cpu, status: code === 0 ? 'ok' : stopped ? 'stopped' : 'FAILED' });
          if (!live && !stopped)
            console.log(`\n----- ${command}: ${code === 0 ? 'ok' : 'FAILED'}, ${seconds.toFixed(1)} s -----\n${output.trimEnd()}\n`);
          if (code === 0) done.add(current.name);
          else if (!failed) {
            failed = current;
            // Stop the steps still running: the run has already failed, and their output would bury the failure.
            stopAll(running);
          }
          schedule();
        });
      }
      if (running.size === 0) finish();
    };
    schedule();
  });

  const wall = (performance.now() - begin) / 1000;
  return verdict(run, steps, { outcomes, pending, failed }, `wall ${wall.toFixed(1)} s (${limit} at a time`);
}

/** The table of the steps, the totals, and the run's last line; answers its exit code. */
function verdict(
  run: string,
  steps: Step[],
  { outcomes, pending, failed }: { outcomes: Outcome[]; pending: Step[]; failed: Step | undefined },
  wall: string,
): number {
  const sum = outcomes.reduce((total, o) => total + o.seconds, 0).toFixed(1);
  const cpu = outcomes.reduce((total, o) => total + (o.cpu ?? 0), 0).toFixed(1);
  const summary = `\n${table(outcomes, pending)}\n\n${wall}; steps add up to ${sum} s, ${cpu} CPU-seconds)`;
  if (!failed && pending.length > 0) {
    console.error(`${summary}\n\n${run}: no rule lets ${pending.map((s) => s.name).join(', ')} start; fix the steps in scripts/test.ts`);
    return 1;
  }
  const passed = outcomes.filter((o) => o.status === 'ok').length;
  if (failed) {
    console.error(
      `${summary}\n\n${run}: step "${failed.name}" failed.\nsteps: ${passed} passed, 1 failed, ${steps.length - passed - 1} not run or stopped`,
    );
    return 1;
  }
  console.log(`${summary}\nsteps: ${steps.length} passed, 0 failed`);
  return 0;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Ends each running step's process group: SIGTERM, so servers stop cleanly, then SIGKILL for whatever lingers. */
function stopAll(running: Map<Step, ChildProcess | undefined>): void {
  for (const child of running.values()) {
    const pid = child?.pid;
    if (pid === undefined || child!.exitCode !== null) continue;
    signalGroup(pid, 'SIGTERM');
    setTimeout(() => signalGroup(pid, 'SIGKILL'), 5000).unref();
  }
}

process.exitCode = await main();
