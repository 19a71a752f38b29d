// `npm run test:mutation` after Stryker: every file of the JSON report at or above a floor (tools/mutation-scores.ts).
// Stryker's `thresholds.break` fails the run below the overall score; this fails it naming each file below its own.
import { readFileSync } from 'node:fs';
import { integerOption, parseCommandLine, usageError } from '../config/cli.ts';
import { fileScores, filesBelow, formatScore, totalScore, type MutationReport } from '../tools/mutation-scores.ts';

const spec = {
  command: 'node --import tsx -- scripts/mutation-file-scores.ts',
  summary: "Reads Stryker's JSON report and fails (exit 1) when a file's mutation score is under the floor, naming each such file.",
  options: {
    report: { type: 'string', value: 'FILE', description: "Stryker's JSON report.", default: 'dist/mutation/mutation.json' },
    floor: { type: 'string', value: 'PERCENT', description: 'The lowest mutation score a file may have.', default: '80' },
  },
} as const;

const { values } = parseCommandLine(spec);
const floor = integerOption(spec, 'floor', values.floor ?? '80', 0, 100);
let report: MutationReport;
try {
  report = JSON.parse(readFileSync(values.report ?? spec.options.report.default, 'utf8')) as MutationReport;
} catch (error) {
  usageError(spec, `cannot read the report ${values.report}: ${(error as Error).message.split('\n')[0]}`);
}
const scores = fileScores(report);
const below = filesBelow(scores, floor);
for (const file of below)
  console.error(
    `mutation: ${file.file}: ${formatScore(file.score)} is under ${floor}% (${file.undetected} mutants survived or not covered)`,
  );
const lowest = scores.filter((file) => file.score !== undefined).sort((a, b) => a.score! - b.score!)[0];
console.log(
  `mutation: ${formatScore(totalScore(scores))} over ${scores.length} files; ${below.length === 0 ? `every file at ${floor}% or above` : `${below.length} under ${floor}%`}` +
    (lowest ? ` (lowest: ${lowest.file} ${formatScore(lowest.score)})` : ''),
);
process.exitCode = below.length === 0 ? 0 : 1;
