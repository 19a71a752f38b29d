// The JUnit report as a CI's test tab shows it, reading like the console: a violation's <failure> carries the promise,
// expected against got, the request, the answer and a curl (vitest's own assertion text follows, for the suite's
// developers); a check that could not be judged is an <error> (JUnit's "did not run to a verdict"), never a <failure>;
// a check that passed only after retries says so in its <system-out>. The counts of each <testsuite> follow.
import { readFileSync, writeFileSync } from 'node:fs';
import type { CheckViolations } from '../report-model.ts';
import { evidenceText } from './text.ts';
import type { RunReport } from '../report-model.ts';

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // XML 1.0 has no way to write most control characters, even escaped.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 cannot carry
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
const unescapeXml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The JUnit failure of one violating check: its violations with their evidence. */
export function failureText(check: CheckViolations): { message: string; body: string } {
  const first = check.violations[0]!;
  const body = check.violations.flatMap((v, i) => [
    `${i + 1}. ${v.promise}`,
    `   ${v.sentence}`,
    ...(v.evidence ? evidenceText(v.evidence) : ['   (no request recorded)']),
    '',
  ]);
  return { message: `Violation: ${first.promise}. ${first.sentence}`, body: body.join('\n') };
}

/** Rewrites `file` (vitest's junit.xml) in place; returns how many test cases it changed. */
export function rewriteJunit(file: string, report: RunReport, byCheck: CheckViolations[]): number {
  let xml: string;
  try {
    xml = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const violations = new Map(byCheck.map((c) => [c.check, c]));
  const unjudged = new Map(report.unjudged.map((c) => [c.name, c]));
  const retried = new Map(report.passedAfterRetries.map((c) => [c.check, c]));
  let changed = 0;
  xml = xml.replace(/<testcase ([^>]*?)>([\s\S]*?)<\/testcase>/g, (whole, attributes: string, inner: string) => {
    const name = unescapeXml(/\bname="([^"]*)"/.exec(attributes)?.[1] ?? '');
    const failure = /<failure message="([^"]*)"( type="[^"]*")?>([\s\S]*?)<\/failure>/.exec(inner);
    let next = inner;
    if (failure && unjudged.has(name)) {
      const reason = unjudged.get(name)!.reason ?? 'could not judge';
      next = inner.replace(
        failure[0],
        `<error message="${escapeXml(`Could not judge: ${reason}`)}" type="CouldNotJudge">${escapeXml(`Could not judge (not a violation, not a pass): ${reason}\n\n`)}${failure[3]}</error>`,
      );
    } else if (failure && violations.has(name)) {
      const { message, body } = failureText(violations.get(name)!);
      next = inner.replace(
        failure[0],
        `<failure message="${escapeXml(message)}"${failure[2] ?? ''}>${escapeXml(`${body}\nThe check's assertion:\n`)}${failure[3]}</failure>`,
      );
    } else if (!failure && retried.has(name)) {
      const r = retried.get(name)!;
      const note = escapeXml(`passed only after retries: ${r.retried} retries${r.throttled ? `, ${r.throttled} throttled` : ''}\n`);
      next = inner.includes('<system-out>')
        ? inner.replace('<system-out>', `<system-out>${note}`)
        : `${inner}    <system-out>${note}</system-out>\n        `;
    }
    if (next === inner) return whole;
    changed++;
    return `<testcase ${attributes}>${next}</testcase>`;
  });
  // The counts: each suite's, then the whole report's.
  const count = (text: string, element: string) => (text.match(new RegExp(`<${element}[ >]`, 'g')) ?? []).length;
  xml = xml.replace(/<testsuite ([^>]*?)>([\s\S]*?)<\/testsuite>/g, (_whole, attributes: string, inner: string) => {
    const fixed = attributes
      .replace(/\bfailures="\d+"/, `failures="${count(inner, 'failure')}"`)
      .replace(/\berrors="\d+"/, `errors="${count(inner, 'error')}"`);
    return `<testsuite ${fixed}>${inner}</testsuite>`;
  });
  xml = xml.replace(/<testsuites ([^>]*?)>/, (_whole, attributes: string) => {
    const fixed = attributes
      .replace(/\bfailures="\d+"/, `failures="${count(xml, 'failure')}"`)
      .replace(/\berrors="\d+"/, `errors="${count(xml, 'error')}"`);
    return `<testsuites ${fixed}>`;
  });
  writeFileSync(file, xml);
  return changed;
}
