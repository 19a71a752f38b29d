// Proof that the contract suite can fail: runs the live suite (strict about assumptions) against the sandbox once per
// injected contract violation (`sandbox/mutations.ts`) and prints which were caught. Every one must be. The lanes and
// the scheduler are contract-tests/runner/mutation-run.ts; this parses the options and prints.
//
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../spec-core/apis.ts';
import type { MutationResult } from '../contract-tests/runner/mutation-run.ts';
import { PRESET_NAMES, PRESETS, type PresetName } from '../contract-tests/fixtures/real-environment-proxy.ts';
import { MUTATIONS } from '../sandbox/mutations.ts';
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';

const MIN_MUTATIONS = 20;
const OUTPUT_ROOT = join(repoRoot, 'dist/contract/mutations');

const CLI = {
  command: 'npm run contract:mutation --',
  summary:
    'Proves the contract suite can fail: runs it (strict about assumptions) against the sandbox switched to each injected contract violation of sandbox/mutations.ts; every one must be caught.',
  options: {
    only: { type: 'string', value: 'ID,ID', description: 'Run only these mutation ids (npm run sandbox -- --list-mutations lists them).' },
    concurrency: {
      type: 'string',
      value: 'N',
      default: '2',
      description: 'Lanes (a sandbox and a loaded suite each) running side by side, 1 to 8.',
    },
    'full-suite': {
      type: 'boolean',
      description: 'Run the whole suite for every mutant, not first the files that exercise its operation.',
    },
    'real-environment': {
      type: 'string',
      value: PRESET_NAMES.join('|'),
      description: 'Put the real-environment proxy with this preset between the suite and each sandbox (e.g. flaky).',
    },
  },
} as const;

function options() {
  const { values } = parseCommandLine(CLI);
  const concurrency = integerOption(CLI, 'concurrency', values.concurrency ?? '2', 1, 8);
  const only = values.only?.split(',').filter(Boolean);
  const unknown = only?.filter((id) => !MUTATIONS.some((m) => m.id === id)) ?? [];
  if (unknown.length) usageError(CLI, `unknown mutation id(s) for --only: ${unknown.join(', ')}`);
  const preset = values['real-environment'];
  if (preset !== undefined && !(PRESET_NAMES as readonly string[]).includes(preset))
    usageError(CLI, `--real-environment must be one of ${PRESET_NAMES.join(', ')}, got "${preset}"`);
  return { only, concurrency, fullSuite: values['full-suite'] === true, through: preset ? PRESETS[preset as PresetName] : undefined };
}

async function main(): Promise<number> {
  const opts = options();
  // Loaded after the options: the lanes load vitest and the bundles, which --help and a bad option never need.
  const { Lane, runMutants } = await import('../contract-tests/runner/mutation-run.ts');
  const started = performance.now();
  const mutations = opts.only ? MUTATIONS.filter((m) => opts.only!.includes(m.id)) : [...MUTATIONS];
  const laneCount = Math.min(opts.concurrency, Math.max(1, mutations.length));
  rmSync(OUTPUT_ROOT, { recursive: true, force: true });
  const starting = Array.from({ length: laneCount }, (_, index) => Lane.start(index, OUTPUT_ROOT, opts.through));
  const lanes = (await Promise.allSettled(starting)).flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  try {
    if (lanes.length < laneCount) throw (await Promise.allSettled(starting)).find((s) => s.status === 'rejected')!.reason;
    // A suite that fails against the unmutated sandbox would "catch" everything; check that first.
    const first = lanes[0]!;
    const baseline = await first.run(null);
    if (baseline.exitCode !== 0) {
      const lines = baseline.failures.map((f) => `${f.name}: ${f.message}`);
      console.error(
        `contract:mutation: the suite fails against the unmutated sandbox, so no mutation result means anything:\n${lines.join('\n')}`,
      );
      return 1;
    }
    console.log(
      `baseline (no mutation, strict; the check of contract:sandbox less the self-checks): ${baseline.passed} passed, ${baseline.skipped} skipped, ${baseline.seconds.toFixed(1)} s`,
    );
    const results = await runMutants(
      lanes,
      mutations,
      { ledgerDir: join(first.outputDir, '.ledger'), filesOfTest: baseline.filesOfTest, fullSuite: opts.fullSuite },
      (last, seconds) =>
        console.log(
          `${last.caught ? 'caught  ' : 'MISSED  '} ${last.mutation.id.padEnd(40)} [${last.how}, ${seconds.toFixed(1)} s] ${last.error ?? last.failures[0] ?? '(no failing test)'}`,
        ),
    );
    const caught = results.filter((r: MutationResult) => r.caught);
    const missed = results.filter((r) => !r.caught);
    const viaTargeted = caught.filter((r) => r.how.endsWith(' files')).length;
    console.log(
      `\ncontract:mutation: ${caught.length} of ${results.length} injected contract violations caught (strict; ${viaTargeted} by the targeted files, ` +
        `${caught.length - viaTargeted} by the whole suite) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const r of missed)
      console.log(`  missed: ${r.mutation.id} (${r.mutation.operation}): ${r.mutation.description}${r.error ? ` [${r.error}]` : ''}`);
    if (!opts.only && results.length < MIN_MUTATIONS) {
      console.error(`contract:mutation: only ${results.length} mutations; at least ${MIN_MUTATIONS} are needed`);
      return 1;
    }
    return missed.length === 0 ? 0 : 1;
  } finally {
    await Promise.all(lanes.map((lane) => lane.stop()));
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`contract:mutation: ${(error as Error).message}`);
  return 1;
});
