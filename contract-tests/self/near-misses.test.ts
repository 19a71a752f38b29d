// Self-check of the near-miss generators (no target needed): every variant really differs from the value, each kind
// is named once and never carries the value, header variants survive the trip through fetch's Headers unchanged,
// and a secret's variants are redacted from anything the suite prints.
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../send/redact.ts';
import { nearMisses, redirectUriNearMisses, trickyStates, type Carrier } from '../operators/near-misses.ts';
import { workerRun } from '../support/worker-run.ts';

const run = workerRun();
const { redactor } = run;

const SECRET = 'Self-Check-secret-0123';
const CARRIERS: Carrier[] = ['header', 'form', 'query', 'path'];

describe('near-miss generators', () => {
  it.for(CARRIERS)('%s: every variant differs from the value, and each kind is named once without the value', (carrier) => {
    const variants = nearMisses(SECRET, carrier);
    expect(variants.length).toBeGreaterThanOrEqual(6);
    expect(variants.map((v) => v.value)).not.toContain(SECRET);
    expect(new Set(variants.map((v) => v.value)).size).toBe(variants.length);
    expect(new Set(variants.map((v) => v.kind)).size).toBe(variants.length);
    for (const { kind } of variants) expect(kind).not.toContain(SECRET);
  });

  it('header variants are sent exactly as made (fetch would strip surrounding whitespace and refuse control characters)', () => {
    for (const { kind, value } of nearMisses(SECRET, 'header')) {
      expect(new Headers({ 'API-Key': value }).get('API-Key'), kind).toBe(value);
    }
  });

  it('form variants include the whitespace and NUL near misses that headers cannot carry', () => {
    const kinds = nearMisses(SECRET, 'form').map((v) => v.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['with surrounding spaces', 'with a NUL byte and a suffix', 'upper case', 'lower case', 'percent-encoded']),
    );
  });

  it("a secret's variants are redacted from printed text, in every encoding a form or a query gives them", () => {
    const secret = `contract-self-${crypto.randomUUID()}`;
    const variants = nearMisses(secret, 'form', { redactor });
    for (const { kind, value } of variants) {
      for (const shown of [value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)]) {
        expect(redactor.redact(`echoed: ${shown}`), kind).toBe(`echoed: ${REDACTED}`);
      }
    }
  });

  it('redirect_uri near misses all differ from the registered URI and keep its host', () => {
    const registered = 'http://127.0.0.1:8765/callback';
    const variants = redirectUriNearMisses(registered);
    expect(variants.length).toBeGreaterThanOrEqual(14);
    expect(new Set(variants.map((v) => v.kind)).size).toBe(variants.length);
    for (const { kind, value } of variants) {
      expect(value, kind).not.toBe(registered);
      expect(value, kind).toContain('127.0.0.1');
    }
  });

  it('tricky states are distinct printable ASCII (RFC 6749 A.5) and of bounded length', () => {
    const states = trickyStates('abc12345');
    expect(new Set(states.map((s) => s.value)).size).toBe(states.length);
    for (const { kind, value } of states) {
      expect(value, kind).toMatch(/^[\x20-\x7e]+$/);
      expect(value.length, kind).toBeLessThanOrEqual(128);
    }
  });
});
