// Which promise a violation breaks, in a partner's words: a security property (wrong credentials refused, one lessee
// never sees another's vehicles, a refusal discloses nothing), an RFC rule the documented flows rely on, no server
// error, or else what the published documentation says of the operation the request addressed (its section and title).
// The violation reports group by this text, so twenty failing requests of one cause are one entry.
import { seedSections } from '../../spec-core/seed-sections.ts';
import { type Operation, specOperations } from '../model/spec.ts';

/** The published documentation's section of an operation: its x-seed-section in the specs. */
export const sectionOfOperation = (operationId: string | undefined, ops: readonly Operation[] = specOperations()) =>
  ops.find((o) => o.operationId === operationId)?.seedSection;

/** "section 4.6 (Get one vehicle)": a section by its number and its title in openapi/seed-gaps.yaml. */
const section = (number: string) => `section ${number} (${seedSections()[number]?.title ?? 'not in openapi/seed-gaps.yaml'})`;

/** The promises as the reports title them; the exchange checks and the rules below name them from here. */
export const PROMISES = {
  lessee: () => `Security: one lessee never sees another lessee's vehicles (published documentation, ${section('5.3')})`,
  disclosure: () => 'Security: a refused request discloses nothing of what an accepted one returns',
  credentials: () => `Security: wrong, missing or misplaced credentials are refused (published documentation, ${section('5')})`,
  noEcho: () => 'Security: no answer shows a credential, or any part of one, in any encoding',
  serverError: () => 'No server error: every request, however malformed, gets an answer that is not a 5xx',
  rfc: (rfc: string, number: string) => `RFC ${rfc}, section ${number}, which the documented OAuth 2.0 flows rely on`,
  /** What the published documentation says of an operation (its section), with the statement broken. */
  seed: (number: string | undefined, statement: string) =>
    `${number ? `Published documentation, ${section(number)}` : 'Published documentation'}: ${statement}`,
} as const;

interface Rule {
  test: RegExp;
  promise: string | ((match: RegExpExecArray) => string);
  /** Also applies to the problems the response checker states (not only to the names of failed checks). */
  answers?: true;
}

/** First match wins: the security properties, then the RFC rules, then the server-error rule. */
const RULES: Rule[] = [
  { test: /foreign|another lessee|other lessee|lessee isolation/i, promise: PROMISES.lessee },
  { test: /discloses?|disclosure/i, promise: PROMISES.disclosure, answers: true },
  // A requirement of the published documentation beyond the RFC names the documentation as its source, whatever RFC it
  // cites beside (the check's title says what the RFC alone would allow).
  {
    test: /\((published documentation (\d+(?:\.\d+)*)[^)]*)\)/,
    promise: (m) => PROMISES.seed(m[2]!, `${m.input.slice(0, m.index).trim()} (${m[1]!})`),
  },
  { test: /\bRFC ?(\d{4})[,:]? (?:section )?(\d+(?:\.\d+)*)/, promise: (m) => PROMISES.rfc(m[1]!, m[2]!) },
  { test: /a 5xx status|server error|never a 5xx|no 5xx/i, promise: PROMISES.serverError, answers: true },
  {
    test: /\b(wrong|missing|without|near-miss|revoked|expired|another scheme|other scheme|refuses?|rejects?)\b.*\b(key|secret|token|credential|client_id|client|subscription)/i,
    promise: PROMISES.credentials,
  },
];

/**
 * The promise a statement breaks, as the reports title it (and group by): `statement` is a failed check's name
 * (`from: 'check'`) or a problem the response checker found in an answer (`from: 'answer'`: only the disclosure and
 * server-error rules apply, the other rules read the names of checks); `operationId` is the operation of the request
 * that shows it, when known. A security property, an RFC rule or the server-error rule is one promise whatever broke
 * it; the documentation's promise is the section's with the statement, so different broken promises of one
 * operation stay apart.
 */
export function promiseOf(
  statement: string,
  from: 'check' | 'answer',
  operationId?: string,
  ops: readonly Operation[] = specOperations(),
): string {
  // A check's own name first, then its groups' ("OAuth clauses of the token endpoints (RFC 6749 3.2, 4.1.3, 5.1, 5.2) >
  // RFC 6749 5.2: each refusal …" breaks 5.2, not the first section its group lists).
  const own = from === 'check' ? statement.split(' > ').at(-1)! : statement;
  for (const text of own === statement ? [statement] : [own, statement]) {
    for (const rule of RULES) {
      if (from === 'answer' && !rule.answers) continue;
      const match = rule.test.exec(text);
      if (match) return typeof rule.promise === 'string' ? rule.promise : rule.promise(match);
    }
  }
  return PROMISES.seed(sectionOfOperation(operationId, ops), statement);
}
