// A failed check is a violation only when the target broke a promise; a request that got no answer to judge, and the
// suite's own error, are "could not judge". Checked on errors as vitest hands them to a reporter (serialized).
import { describe, expect, it } from 'vitest';
import { failedCheckOf, outcomeOfError, outcomeOfErrors } from '../judge/outcomes.ts';

interface Serialized {
  name: string;
  message: string;
  cause?: Serialized;
}
const serialized = (error: Error): Serialized => ({
  name: error.name,
  message: error.message,
  ...(error.cause ? { cause: serialized(error.cause as Error) } : {}),
});
const named = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('the outcome of a failed check', () => {
  it('is a violation for an assertion of the suite and for a positive call the target refused', () => {
    expect(outcomeOfError(serialized(named('AssertionError', 'status 200: expected 2 to be 4')))).toBe('violation');
    expect(outcomeOfError(serialized(named('CheckFailure', 'GET /vehicles failed with status 401')))).toBe('violation');
  });

  it("is could-not-judge for a request without an answer and for the suite's own errors", () => {
    expect(outcomeOfError(serialized(named('CouldNotJudge', 'GET /vehicles: the connection failed (ECONNREFUSED)')))).toBe('unjudged');
    expect(outcomeOfError(serialized(new TypeError('own.find is not a function')))).toBe('unjudged');
    expect(outcomeOfError(serialized(new SyntaxError('Unexpected token < in JSON')))).toBe('unjudged');
    expect(outcomeOfError(serialized(named('Error', 'Test timed out in 30000ms.')))).toBe('unjudged');
  });

  it("looks through a wrapping error (fast-check quotes the failing run's error)", () => {
    const property = named('Error', 'Property failed after 1 tests\n{ seed: 1 }\nGot AssertionError: expected 503 to be less than 500');
    expect(outcomeOfError(serialized(property))).toBe('violation');
    const caused = new Error('wrapper', { cause: named('CouldNotJudge', 'GET /x: no answer within 15000 ms') });
    expect(outcomeOfError(serialized(caused))).toBe('unjudged');
  });

  it("is a violation when any of a check's errors is one: a broken promise outweighs a missing answer", () => {
    const errors = [
      serialized(named('CouldNotJudge', 'timed out')),
      serialized(named('AssertionError', 'responses that break the contract')),
    ];
    expect(outcomeOfErrors(errors)).toBe('violation');
    expect(outcomeOfErrors([serialized(new TypeError('x is undefined'))])).toBe('unjudged');
  });

  it("says why a check could not be judged, naming the suite's own error as a bug of the suite", () => {
    expect(
      failedCheckOf('t', 'f', [serialized(named('CouldNotJudge', 'GET /x: the connection failed (ECONNRESET), 6 tries'))]).reason,
    ).toBe('GET /x: the connection failed (ECONNRESET), 6 tries');
    expect(failedCheckOf('t', 'f', [serialized(new TypeError('own.find is not a function'))]).reason).toMatch(
      /^the suite's own error \(TypeError: own\.find is not a function\): a bug of the suite, not a verdict on the target$/,
    );
  });
});
