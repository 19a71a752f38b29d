// The judge of every exchange: the listener the suite's setup subscribes to the one fetch. It runs every applicable
// exchange check (exchange-checks.ts) with the run's context, adds their findings to the exchange (redacted), learns
// what the exchange issued, records the broken promises with their evidence and the assumptions' outcomes, and hands
// the failures to the running test (support/setup.ts fails it). A finding is a violation even when the test that sent
// the request was probing an assumption: the assumption's own outcome is recorded beside it, never instead of it.
import { capabilityOf } from '../send/capabilities.ts';
import { contentTypeOf, type Exchange, evidenceOfExchange, requestLineOf } from '../send/fetch.ts';
import type { Finding } from '../model/findings.ts';
import type { Observed } from '../send/ledger.ts';
import { recordClientEvidence } from './client-evidence.ts';
import { runContext } from './context.ts';
import { applies, EXCHANGE_CHECKS } from './exchange-checks.ts';
import { operationIdOf } from './exchange-facts.ts';
import { beyondRfc, breaksContract, whyNote } from './clauses/clause-standing.ts';
import { standingOf } from './clauses/standings.ts';

function recordFindings(seen: Exchange, findings: Finding[]): void {
  const { ledger, target } = seen.run;
  const violations = findings.filter((f) => f.verdict === 'violation');
  if (violations.length) {
    const evidence = evidenceOfExchange(seen);
    for (const f of violations)
      ledger.record({
        kind: 'violation',
        test: seen.test,
        promise: f.promise,
        from: 'answer',
        message: f.message,
        check: f.check,
        evidence,
      });
    ledger.reportProblems(
      violations.map((f) => f.message),
      seen.test,
    );
  }
  const contradicted = findings.filter((f) => f.verdict === 'contradicted');
  ledger.reportContradictions(
    contradicted.map((f) => `${f.message} (assumed at ${f.assumption?.api}#${f.assumption?.pointer}: ${f.assumption?.match})`),
    seen.test,
  );
  for (const f of findings)
    if (f.verdict === 'note')
      ledger.record({
        kind: 'note',
        operationId: operationIdOf(seen) ?? seen.request.method,
        dimension: f.check,
        text: f.message,
        test: seen.test,
      });
  // The Prism mock answers from the spec itself: what it sends confirms or contradicts nothing.
  if (!capabilityOf(target.name).hasDataSemantics) return;
  for (const f of findings) {
    if (!f.assumption || f.verdict === 'violation') continue;
    const contradicted = f.verdict === 'contradicted';
    // A confirmation of an assumption whose first evidence lines and observed answers are all known changes no report.
    if (!contradicted && confirmations.full(f.assumption)) continue;
    const evidence = contradicted
      ? f.message
      : `${requestLineOf(seen.run, seen.request)} answered ${seen.response.status} ${contentTypeOf(seen.response)} as assumed`;
    if (!contradicted && !confirmations.shows(f.assumption, evidence, () => seen.observed)) continue;
    const outcome = contradicted ? 'contradicted' : 'confirmed';
    ledger.record({ kind: 'assumption', ...f.assumption, outcome, evidence, observed: seen.observed, test: seen.test });
  }
}

/** An assumption as Confirmations keys it. */
const keyOf = (assumption: NonNullable<Finding['assumption']>): string => `${assumption.api}\n${assumption.pointer}\n${assumption.match}`;

/** Evidence lines and observed answers the report shows of an assumption (report/assumption-outcomes.ts). */
const SHOWN = 3;

/**
 * The confirmations of each assumption worth recording. The report shows, of an assumption no answer contradicted, the
 * first 3 different evidence lines and observed answers of the ledger: a confirmation that brings neither a new one of
 * its first 3 nor a new one of its first 3 observed answers changes no report, so it is not recorded (a run confirms the
 * 4XX range's assumption on some thousand answers). Kept per worker; the ledger's order across workers is kept too, since
 * each worker's first 3 of either hold the first of the others' that the report can show.
 */
export class Confirmations {
  readonly #seen = new Map<string, { evidence: Set<string>; observed: Set<string> }>();

  shows(assumption: NonNullable<Finding['assumption']>, evidence: string, observed: () => Observed): boolean {
    const seen = this.#of(assumption);
    const newEvidence = seen.evidence.size < SHOWN && !seen.evidence.has(evidence);
    // The observed answer (its body's start, redacted) is made only while it could still be shown.
    const shown = seen.observed.size < SHOWN ? JSON.stringify(observed()) : undefined;
    const newObserved = shown !== undefined && !seen.observed.has(shown);
    if (newEvidence) seen.evidence.add(evidence);
    if (newObserved) seen.observed.add(shown);
    return newEvidence || newObserved;
  }

  /** No confirmation of `assumption` can bring a new one of its first evidence lines or observed answers: its evidence
   * need not be made. */
  full(assumption: NonNullable<Finding['assumption']>): boolean {
    const seen = this.#seen.get(keyOf(assumption));
    return seen !== undefined && seen.evidence.size >= SHOWN && seen.observed.size >= SHOWN;
  }

  #of(assumption: NonNullable<Finding['assumption']>): { evidence: Set<string>; observed: Set<string> } {
    const key = keyOf(assumption);
    let seen = this.#seen.get(key);
    if (!seen) {
      seen = { evidence: new Set<string>(), observed: new Set<string>() };
      this.#seen.set(key, seen);
    }
    return seen;
  }
}

const confirmations = new Confirmations();

/** A violation as its clause reads today: a note when the clause is not a MUST that still stands, or binds the client;
 * a requirement of the published documentation beyond the RFC says so (judge/clauses/). */
export function asItStandsToday(finding: Finding): Finding {
  if (finding.verdict !== 'violation' || finding.clause === undefined) return finding;
  const standing = standingOf(finding.clause);
  if (!breaksContract(standing)) return { ...finding, verdict: 'note', message: `${finding.message}: ${whyNote(standing)}` };
  const beyond = beyondRfc(standing);
  return beyond ? { ...finding, message: `${finding.message} (${beyond})`, promise: `${finding.promise} (${beyond})` } : finding;
}

/** Judges one exchange; subscribed to the one fetch by the suite's setup. */
export async function judgeExchange(seen: Exchange): Promise<void> {
  const context = runContext(seen.run);
  const findings: Finding[] = [];
  for (const check of EXCHANGE_CHECKS) {
    if (!applies(check, seen, context)) continue;
    // Most checks judge at once: only a promise is waited for (an await of each cost every answer some 15 turns).
    const judged = check.judge(seen, context);
    for (const finding of judged instanceof Promise ? await judged : judged)
      findings.push(asItStandsToday({ ...finding, message: seen.run.redactor.redact(finding.message) }));
  }
  context.learn(seen);
  seen.findings.push(...findings);
  recordFindings(seen, findings);
  recordClientEvidence(seen);
}
