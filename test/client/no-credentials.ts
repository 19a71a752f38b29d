// The check every credential test ends with: no view of an error (message, toString, JSON, stack, inspection) carries
// any of the given credentials.
import { inspect } from 'node:util';
import { expect } from 'vitest';

export function expectNoCredentials(error: unknown, credentials: readonly string[]): void {
  expect(error).toBeInstanceOf(Error);
  const views = [
    (error as Error).message,
    String(error),
    JSON.stringify(error),
    (error as Error).stack ?? '',
    inspect(error, { depth: 10 }),
  ];
  // A failure names the view, never the credential: the assertion message is printed.
  for (const [v, view] of views.entries())
    for (const [c, credential] of credentials.entries()) expect(view.includes(credential), `view ${v} carries credential ${c}`).toBe(false);
}
