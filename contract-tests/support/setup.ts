// Runs in every test file: a test fails when any response it received broke the contract, even if its own
// assertions passed, so "every response the suite receives is checked" holds without each test repeating it.
// Problems found in a beforeAll hook are reported by the first test that follows it.
import { afterEach, expect } from 'vitest';
import { takeProblems } from './ledger.ts';

afterEach(() => {
  expect(takeProblems(), 'responses that break the contract').toEqual([]);
});
