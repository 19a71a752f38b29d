// The base URLs of the APIs, each parsed once: every exchange is matched against them (its operation, its API's pace).

/** A base URL's origin and its path without trailing slashes. */
export interface BaseUrl {
  origin: string;
  prefix: string;
}

const parsed = new Map<string, BaseUrl | undefined>();

/** The origin and path prefix of a base URL, or undefined when it does not parse. */
export function baseUrlOf(base: string): BaseUrl | undefined {
  if (parsed.has(base)) return parsed.get(base);
  const url = URL.canParse(base) ? new URL(base) : undefined;
  const found = url && { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
  // The settings name a few; a test may try many.
  if (parsed.size >= 100) parsed.clear();
  parsed.set(base, found);
  return found;
}
