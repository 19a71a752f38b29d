// Plain requests for negative and malformed cases, which the typed client rightly cannot send. All go through
// the contract fetch, so their answers are checked against the spec like any other.
import { exchange, type Exchange } from './fetch.ts';
import { joinUrl, required, type LpVariable, type Target } from './target.ts';

export function form(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) params.set(key, value);
  return params.toString();
}

export function send(
  target: Target,
  base: LpVariable,
  path: string,
  init: RequestInit & { headers?: Record<string, string> } = {},
): Promise<Exchange> {
  return exchange(joinUrl(required(target, base), path), { redirect: 'manual', ...init });
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const JSON_TYPE = { 'content-type': 'application/json' };

/** The status class (2, 3, 4, 5) of a response, so that checks assert classes where the seed gives no exact code. */
export const statusClass = (status: number) => Math.floor(status / 100);

/** A JSON body as an object, or undefined when the body is not JSON. */
export function jsonOf(bodyText: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(bodyText) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
