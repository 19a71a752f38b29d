// Reading an answer the way the checks assert on it: its status class (the seed gives classes, not codes) and its
// body as a JSON object when it is one.

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
