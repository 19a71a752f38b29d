// The worker's redactor remembers what it made of short texts (send/redact.ts, RememberingRedactor): it must give what
// the kit's redactor gives at every moment, so a credential it learns or forgets after a text was first redacted counts
// the next time that text is redacted.
import { describe, expect, it } from 'vitest';
import { Redactor, RememberingRedactor } from '../send/redact.ts';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.issued-later.signature';
const texts = [
  `getVehicle answered 200 with ${TOKEN}`,
  `GET /fleet/vehicles?access_token=${encodeURIComponent(TOKEN)}`,
  'answered as assumed',
  `Basic ${btoa(`client:${TOKEN}`)}`,
  `a long text ${'x'.repeat(600)} ${TOKEN}`,
  'configured-secret-value in a message',
];

describe("the worker's redactor", () => {
  it('hides a credential it learns in a text it redacted before learning it', () => {
    const redactor = new RememberingRedactor(['configured-secret-value']);
    expect(redactor.redact(texts[0]!)).toContain(TOKEN);
    redactor.add(TOKEN);
    expect(redactor.redact(texts[0]!)).not.toContain(TOKEN);
    redactor.delete(TOKEN);
    expect(redactor.redact(texts[0]!)).toContain(TOKEN);
  });

  it("gives the kit's redactor's text at every step, the same credential told twice included", () => {
    const remembering = new RememberingRedactor(['configured-secret-value']);
    const plain = new Redactor(['configured-secret-value']);
    const steps: Array<(r: Redactor) => void> = [
      () => {},
      (r) => r.add(TOKEN),
      (r) => r.add(TOKEN),
      (r) => r.add('abc'),
      (r) => r.delete('configured-secret-value'),
      (r) => r.add('configured-secret-value'),
    ];
    for (const step of steps) {
      step(remembering);
      step(plain);
      for (const text of [...texts, ...texts]) expect(remembering.redact(text)).toBe(plain.redact(text));
    }
  });
});
