// What the suite's global teardown writes from the run's ledger into the report directory: transport.json,
// violations.json, coverage.{json,md}, assumptions.{json,md}, strict-failures.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assumptionReport } from './assumption-outcomes.ts';
import { clauseSection, clauseTable } from './clause-table.ts';
import { coverage, crossingCoverage, dimensionCoverage } from './coverage.ts';
import { readJsonFile, readLedger } from './run-files.ts';
import {
  type AssumptionReportRow,
  type CoverageRow,
  contradictedKey,
  type RunReport,
  type UnjudgedRequest,
  type ViolationGroup,
} from './report-model.ts';
import { htmlReport } from './views/html.ts';
import { summaryMarkdown } from './views/summary.ts';
import { retriedChecks, transportSummary } from './transport-summary.ts';
import { notesOf, skipGroups } from './skip-groups.ts';
import { violationGroups, violationsByCheck } from './violations.ts';
import { assumptionsMarkdown, coverageMarkdown, crossingsMarkdown, dimensionsMarkdown, notesMarkdown } from './views/markdown.ts';

/** The run the reports are of: its target's name and settings, and the requests in flight its settings allowed. */
export interface ReportedRun {
  targetName: string;
  env: Partial<Record<string, string>>;
  concurrency: number;
}

export function writeReports(dir: string, ledgerDir: string, run: ReportedRun): { coverageRows: CoverageRow[]; md: string } {
  const { targetName } = run;
  const entries = readLedger(ledgerDir);
  const unjudged: UnjudgedRequest[] = entries.flatMap((e) =>
    e.kind === 'unjudged' ? [{ request: e.request, reason: e.reason, message: e.message, test: e.test }] : [],
  );

  const coverageRows = coverage(entries);
  const assumptions = assumptionReport(entries);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'transport.json'),
    `${JSON.stringify({ target: targetName, stats: transportSummary(entries, run.env, run.concurrency), unjudged, retriedChecks: retriedChecks(entries) }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'violations.json'),
    `${JSON.stringify({ target: targetName, violations: violationGroups(entries, { occurrences: true }), byCheck: violationsByCheck(entries) }, null, 2)}\n`,
  );
  const dimensions = dimensionCoverage(entries);
  const crossings = crossingCoverage(entries);
  const clauses = clauseTable();
  writeFileSync(
    join(dir, 'coverage.json'),
    `${JSON.stringify({ target: targetName, rows: coverageRows, dimensions, crossings, clauses, notes: entries.filter((e) => e.kind === 'note'), skips: skipGroups(entries), notesOnce: notesOf(entries) }, null, 2)}\n`,
  );
  const md = [
    coverageMarkdown(coverageRows, targetName),
    dimensionsMarkdown(dimensions),
    crossingsMarkdown(crossings),
    notesMarkdown(entries),
  ]
    .filter(Boolean)
    .join('\n');
  writeFileSync(join(dir, 'coverage.md'), [md, clauseSection(clauses)].join('\n'));
  writeFileSync(join(dir, 'assumptions.json'), `${JSON.stringify({ target: targetName, assumptions }, null, 2)}\n`);
  writeFileSync(join(dir, 'assumptions.md'), assumptionsMarkdown(assumptions, targetName));
  // Checks that failed only for a contradicted assumption (strict runs): the verdict line does not count them as violations.
  const strictFailures = [...new Set(entries.flatMap((e) => (e.kind === 'strict-failure' ? [e.test] : [])))];
  writeFileSync(join(dir, 'strict-failures.json'), `${JSON.stringify({ target: targetName, strictFailures }, null, 2)}\n`);
  return { coverageRows, md };
}

/**
 * Writes the run's own reports into `outputDir`: report.json, summary.md, report.html, and the drift (when a baseline was given)
 * into violations.json and assumptions.json as well, so every report says what is new. `redact` is the last line of
 * defence: what is written was built from redacted data.
 */
export function writeRunReport(outputDir: string, report: RunReport, redact: (text: string) => string): void {
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, 'report.json'), redact(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(join(outputDir, 'summary.md'), redact(`${summaryMarkdown(report)}\n`));
  writeFileSync(join(outputDir, 'report.html'), redact(htmlReport(report)));
  if (!report.drift) return;
  const { drift } = report;
  const patch = (file: string, change: (data: Record<string, unknown>) => void) => {
    const data = readJsonFile<Record<string, unknown>>(join(outputDir, file));
    if (!data) return;
    change(data);
    writeFileSync(join(outputDir, file), redact(`${JSON.stringify(data, null, 2)}\n`));
  };
  patch('violations.json', (data) => {
    for (const group of (data.violations as Array<ViolationGroup & { sinceBaseline?: string }>) ?? [])
      group.sinceBaseline = drift.violations.new.includes(group.promise) ? 'new' : 'still seen';
    data.noLongerSeen = drift.violations.gone;
    data.baseline = drift.baseline;
  });
  patch('assumptions.json', (data) => {
    for (const row of (data.assumptions as Array<AssumptionReportRow & { sinceBaseline?: string }>) ?? [])
      if (row.outcome === 'contradicted') row.sinceBaseline = drift.contradicted.new.includes(contradictedKey(row)) ? 'new' : 'still seen';
    data.contradictedNoLongerSeen = drift.contradicted.gone;
    data.baseline = drift.baseline;
  });
}
