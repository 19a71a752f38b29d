// Moves the target's clock, for targets with the advancesClock capability (the sandbox's POST /_sandbox/clock).
// Not an API operation: plain fetch, outside the contract checks.
import { required, type Target } from './target.ts';

const clockUrl = (target: Target) => new URL('/_sandbox/clock', required(target, 'LP_BASE_URL')).toString();

async function clockRequest(target: Target, body?: Record<string, number>): Promise<number> {
  const response = await fetch(clockUrl(target), {
    method: body ? 'POST' : 'GET',
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(5000),
  });
  if (!response.ok) throw new Error(`the target's clock control answered ${response.status}`);
  const { offsetSeconds } = (await response.json()) as { offsetSeconds?: unknown };
  if (typeof offsetSeconds !== 'number') throw new Error("the target's clock control did not report offsetSeconds");
  return offsetSeconds;
}

let advanced = 0;

/** How far the suite has moved the target's clock ahead right now, in seconds (the judge ages tokens by it). */
export const clockAdvanceSeconds = () => advanced;

/** Runs `body` with the target's clock moved forward by `seconds`, and always puts the clock back. */
export async function withClockAdvanced<T>(target: Target, seconds: number, body: () => Promise<T>): Promise<T> {
  const before = await clockRequest(target);
  await clockRequest(target, { advanceSeconds: seconds });
  advanced += seconds;
  try {
    return await body();
  } finally {
    advanced -= seconds;
    await clockRequest(target, { offsetSeconds: before });
  }
}
