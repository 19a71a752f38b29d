// Which promise a violation breaks, in a partner's words: a security property (wrong credentials refused, one lessee
// never sees another's vehicles, a refusal discloses nothing), an RFC rule the documented flows rely on, no server
// error, or else what the published documentation says of the operation the request addressed (its section and title).
// The violation reports group by this text, so twenty failing requests of one cause are one entry.
import { seedSections } from '../../spec-core/seed-sections.ts';
import { operations } from '../send/spec.ts';

/** The published documentation's section of each operation (the seed document's numbering, which the specs cite). */
export const SECTION_OF_OPERATION: Record<string, string> = {
  requestServiceToken: '4.1',
  requestIdentityProviderToken: '4.2',
  requestAuthorization: '4.3',
  recordLoadMilestoneEvent: '4.4',
  listVehicles: '4.5',
  getVehicle: '4.6',
};

/** "section 4.6 (Get one vehicle)": a section by its number and its title in openapi/seed-gaps.yaml. */
const section = (number: string) => `section ${number} (${seedSections()[number]!.title})`;

/** Operations of the specs that have no section above, or one openapi/seed-gaps.yaml does not list (a self-test keeps this empty). */
export const operationsWithoutSection = () =>
  operations.map((o) => o.operationId).filter((id) => !(SECTION_OF_OPERATION[id] && seedSections()[SECTION_OF_OPERATION[id]]));

interface Rule {
  test: RegExp;
  promise: string | ((match: RegExpExecArray) => string);
  /** Also applies to the problems the response checker states (not only to the names of failed checks). */
  answers?: true;
}

/** First match wins: the security properties, then the RFC rules, then the server-error rule. */
const RULES: Rule[] = [
  {
    test: /foreign|another lessee|other lessee|lessee isolation/i,
    promise: () => `Security: one lessee never sees another lessee's vehicles (published documentation, ${section('5.3')})`,
  },
  {
    test: /discloses?|disclosure/i,
    promise: 'Security: a refused request discloses nothing of what an accepted one returns',
    answers: true,
  },
  {
    test: /\bRFC ?(\d{4})[,:]? (?:section )?(\d+(?:\.\d+)*)/,
    promise: (m) => `RFC ${m[1]}, section ${m[2]}, which the documented OAuth 2.0 flows rely on`,
  },
  {
    test: /a 5xx status|server error|never a 5xx|no 5xx/i,
    promise: 'No server error: every request, however malformed, gets an answer that is not a 5xx',
    answers: true,
  },
  {
    test: /\b(wrong|missing|without|near-miss|revoked|expired|another scheme|other scheme|refuses?|rejects?)\b.*\b(key|secret|token|credential|client_id|client|subscription)/i,
    promise: () => `Security: wrong, missing or misplaced credentials are refused (published documentation, ${section('5')})`,
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
export function promiseOf(statement: string, from: 'check' | 'answer', operationId?: string): string {
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
  const number = operationId ? SECTION_OF_OPERATION[operationId] : undefined;
  const where = number ? `Published documentation, ${section(number)}` : 'Published documentation';
  return `${where}: ${statement}`;
}
