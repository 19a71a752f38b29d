// One run of the contract suite against one target, end to end: the baseline read first, the target started (or
// read from LP_* and .env), the live preflight, the suite, the verdict, and every report of the run (the console's
// sections, report.json, summary.md, report.html, junit.xml rewritten, GitHub's annotations). `npm run contract*`
// (scripts/contract.ts) parses the options and calls it.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type ResolvedTarget, withTarget } from '../../tools/targets.ts';
import { buildRunReport, readBaseline } from '../report/build.ts';
import type { RunReport } from '../report/report-model.ts';
import { EXIT_CODES, type RunVerdict, verdictOfRun } from '../report/verdict-line.ts';
import { githubReport, reportToGithub } from '../report/views/github.ts';
import { rewriteJunit } from '../report/views/junit.ts';
import { contradictionsText, driftText, notesText, retriesText, skipsText, violationsText } from '../report/views/text.ts';
import { writeRunReport } from '../report/write.ts';
import { redactorFromEnvironment } from '../send/redact.ts';
import type { RunSettings } from '../send/run-settings.ts';
import { Transport } from '../send/transport.ts';
import { workflowLine, workflowsText } from '../workflows/report-text.ts';
import { summarize, type WorkflowsRun } from '../workflows/workflow-verdict.ts';
import { preflight } from './preflight.ts';
import { showProgress } from './progress.ts';
import { foldable, outputTail, suiteLine } from './console-summary.ts';
import { loadVitest, runSuite, SUITE_OUTPUT } from './run-suite.ts';

export interface ContractRunOptions {
  /**
   * The run's settings, read once (scripts/contract.ts): the target, its LP_* settings (live's; a started mock or
   * sandbox brings its own), the output directory, strictness, runs, the transport, verbosity.
   */
  settings: RunSettings;
  /** The partner named the workers (--workers, LP_CONTRACT_WORKERS); otherwise a live run's preflight chooses them. */
  workersNamed: boolean;
  mutation: string | undefined;
  /** A previous run's report directory, to report the drift since. */
  baselineDir: string | undefined;
  vitestArgs: string[];
  failOnSkip: boolean;
  minCoverage: number | undefined;
  /** Run the documented flows as Arazzo workflows after the suite (contract:live does unless --no-workflows). */
  workflows: boolean;
}

/** The run's exit code from the suite's and the workflows': a violation in either fails it, then could not judge. */
export function combinedExitCode(...codes: number[]): number {
  if (codes.includes(EXIT_CODES.fail)) return EXIT_CODES.fail;
  return codes.find((code) => code !== EXIT_CODES.pass) ?? EXIT_CODES.pass;
}

/** The documented flows as Arazzo workflows, by Redocly Respect, against the same target; outputs in <out>/workflows. */
async function runDocumentedFlows(settings: RunSettings): Promise<WorkflowsRun> {
  console.log('\ncontract: the documented flows as Arazzo workflows (Redocly Respect)');
  try {
    // Loaded only when the flows run: Respect's runner and what it brings cost a fifth of a CPU-second to load.
    const { runWorkflows } = await import('../workflows/run-workflows.ts');
    return await runWorkflows({
      target: settings.target,
      env: settings.targetEnv,
      outputDir: join(settings.outputDir, 'workflows'),
      strict: settings.strictAssumptions,
      requestTimeoutMs: settings.transport.timeoutMs,
      onWorkflow: (result) => console.log(workflowLine(result)),
    });
  } catch (error) {
    // Respect itself failed to run: nobody's verdict on the target, and never a pass.
    const line = `workflows verdict: COULD NOT JUDGE: the workflows could not run: ${(error as Error).message}`;
    return { ...summarize(settings.target, [], 0, settings.strictAssumptions), exitCode: EXIT_CODES.couldNotJudge, line };
  }
}

type Baseline = { dir: string; keys: ReturnType<typeof readBaseline> };

/** Runs the suite against the target and reports; answers the run's exit code. */
export async function runContract(opts: ContractRunOptions): Promise<number> {
  // Vitest loads while the run reaches its target (a mock's start, the preflight's round trips); a failure to load is
  // the suite's to report, when it starts.
  loadVitest().catch(() => undefined);
  // Read before the run: the baseline may be the directory this run writes to.
  let baseline: Baseline | undefined;
  if (opts.baselineDir) {
    try {
      baseline = { dir: opts.baselineDir, keys: readBaseline(opts.baselineDir) };
    } catch (error) {
      console.error(`contract: could not judge: ${(error as Error).message}`);
      return EXIT_CODES.couldNotJudge;
    }
  }
  const { target } = opts.settings;
  return withTarget(
    target,
    { mutation: opts.mutation, reuseRunningMock: true, settings: opts.settings.targetEnv },
    // The target's own settings: a started mock's or sandbox's, or live's as read.
    (server) => runAgainst({ ...opts, settings: { ...opts.settings, targetEnv: server.env } }, server, baseline),
    (error) => {
      if (target !== 'live') throw error;
      // Live settings are the user's to fix: one line, exit 2 (could not judge).
      console.error(`contract: could not judge: ${error.message}`);
      return EXIT_CODES.couldNotJudge;
    },
  );
}

/** Does each configured API of a live target answer, and accept the partner's own credentials? If not, no check can
 * judge it: the run stops here (undefined). If so, the settings to run with: the workers chosen from the round trip
 * when the partner named none. */
async function afterPreflight(opts: ContractRunOptions): Promise<RunSettings | undefined> {
  const { settings } = opts;
  const env = settings.targetEnv;
  const { results, workers } = await preflight(
    env,
    new Transport({ ...settings.transport, workers: 1 }, fetch, Math.random, { env }),
    opts.workersNamed,
    // Its round trip is read once vitest has loaded (loading, this process answers late).
    loadVitest().catch(() => undefined),
  );
  for (const result of results) console.log(`contract: preflight: ${result.line}`);
  if (results.every((r) => r.ok)) return workers === undefined ? settings : { ...settings, transport: { ...settings.transport, workers } };
  console.log(
    'contract verdict: COULD NOT JUDGE: the target refused the configured credentials or could not be reached (above); no check ran',
  );
  return undefined;
}

/** The suite's phase: its line on start, the progress while it runs, its counts at the end. */
async function suitePhase(settings: RunSettings, vitestArgs: string[]) {
  const out = settings.outputDir;
  if (!settings.verbose) console.log(`contract: suite: running (its own output: ${join(out, SUITE_OUTPUT)}; --verbose prints it)`);
  // The ledger of a run before this one would count as progress: the suite's global setup clears it too.
  rmSync(join(out, '.ledger'), { recursive: true, force: true });
  const stopProgress = settings.verbose ? () => {} : showProgress({ ledgerDir: join(out, '.ledger'), stream: process.stderr });
  const run = await runSuite({ settings, echo: settings.verbose, vitestArgs }).finally(stopProgress);
  console.log(suiteLine(run));
  return run;
}

async function runAgainst(opts: ContractRunOptions, server: ResolvedTarget, baseline: Baseline | undefined): Promise<number> {
  const settings = opts.settings.target === 'live' ? await afterPreflight(opts) : opts.settings;
  if (!settings) return EXIT_CODES.couldNotJudge;
  const { target, outputDir: out, strictAssumptions: strict } = settings;
  if (target === 'mock') console.log(`contract: ${server.source}`);
  console.log(
    `contract: target ${target}${opts.mutation ? ` (mutation ${opts.mutation})` : ''}, ${strict ? 'strict: contradicted assumptions fail the run' : 'contradicted assumptions are reported, not failed (--strict-assumptions to fail them)'}`,
  );
  const run = await suitePhase(settings, opts.vitestArgs);
  const verdict = verdictOfRun(run, out, { failOnSkip: opts.failOnSkip, minCoverage: opts.minCoverage });
  const crashed = run.exitCode !== 0 && verdict.failedChecks.length === 0;
  if (crashed && !settings.verbose) console.log(`\n${outputTail(run.output)}`);
  const workflows = opts.workflows ? await runDocumentedFlows(settings) : undefined;
  const report = buildRunReport(verdict, {
    target,
    strict,
    ...(baseline ? { baseline } : {}),
    ...(workflows ? { workflows } : {}),
  });
  const secrets = redactorFromEnvironment(settings.targetEnv);
  const redact = (text: string) => secrets.redact(text);
  printSections(report, verdict, workflows, redact);
  writeRunReport(out, report, redact);
  rewriteJunit(join(out, 'junit.xml'), report, verdict.violationsByCheck);
  console.log(
    `contract: target ${target} took ${run.seconds.toFixed(1)} s wall time; reports in ${out} (report.html, summary.md, violations.json, assumptions.md, coverage.md, junit.xml, ${SUITE_OUTPUT})`,
  );
  console.log(verdict.line);
  if (workflows) console.log(workflows.line);
  // In GitHub Actions: annotations (violations, contradicted assumptions at their spec line) and the job summary.
  reportToGithub(githubReport(report), redact);
  return combinedExitCode(verdict.exitCode, workflows?.exitCode ?? EXIT_CODES.pass);
}

/** The three outcomes apart, each in its own section, then what changed since the baseline, the workflows', the skips
 * and the notes; then the requests line. */
function printSections(report: RunReport, verdict: RunVerdict, workflows: WorkflowsRun | undefined, redact: (text: string) => string) {
  const sections = [
    violationsText(report.violations, report.drift?.violations),
    contradictionsText(verdict.contradictedRows),
    verdict.unjudgedText,
    retriesText(report),
    report.drift ? driftText(report.drift) : '',
    workflows ? workflowsText(workflows) : '',
    skipsText(report.skips ?? []),
    notesText(report.notes ?? []),
  ];
  for (const section of sections) if (section) console.log(`\n${foldable(redact(section))}`);
  if (verdict.transport) console.log(verdict.transport);
}
