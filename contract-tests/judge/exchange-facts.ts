// What an exchange carried and got, read the way the server must have read it: the form and the query decoded, the
// credentials of each channel (headers, form fields, HTTP Basic), the Location of a redirect, the answer's JSON.
// The exchange checks judge from these facts, so each reads a request in one way only.
import type { Exchange } from '../send/fetch.ts';
import { mediaTypeOf } from '../model/media-types.ts';

type Json = Record<string, unknown>;

/** The form fields of a form-encoded body, as pairs (a field may repeat); undefined when the body is not a form. */
export function formOf(seen: Exchange): Array<[string, string]> | undefined {
  if (mediaTypeOf(seen.request.headers.get('content-type')) !== 'application/x-www-form-urlencoded') return undefined;
  return [...new URLSearchParams(seen.request.body)];
}

/** The query of the request, as pairs. */
export const queryOf = (seen: Exchange): Array<[string, string]> => [...new URL(seen.request.url).searchParams];

/** Every value of a field of the form (or, with `query`, of the query), empty ones dropped: RFC 6749 3.1 and 3.2 treat a
 * parameter sent without a value as omitted. */
export const valuesOf = (pairs: Array<[string, string]> | undefined, name: string) =>
  (pairs ?? []).filter(([n, v]) => n === name && v !== '').map(([, v]) => v);

/** The names that appear more than once among the pairs. */
export const repeatedFields = (pairs: Array<[string, string]> | undefined) => {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const [name] of pairs ?? []) (seen.has(name) ? repeated : seen).add(name);
  return [...repeated];
};

/** A header of the request as the server reads it (fetch joins repeated fields with ", "). */
export const requestHeader = (seen: Exchange, name: string) => seen.request.headers.get(name) ?? undefined;

/** The bearer token of the request's Authorization header, if it has one. */
export function bearerOf(seen: Exchange): string | undefined {
  const match = /^bearer\s+(.*)$/i.exec(requestHeader(seen, 'authorization') ?? '');
  return match ? match[1]!.trim() : undefined;
}

/** The client id and secret of an HTTP Basic Authorization header (RFC 6749 2.3.1: each form-urlencoded first). */
export function basicOf(seen: Exchange): { id: string; secret: string } | undefined {
  const match = /^basic\s+(\S+)$/i.exec(requestHeader(seen, 'authorization') ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unform = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
}

/** The Location of a redirect, resolved against the request's URL; undefined for any other answer. */
export function locationOf(seen: Exchange): URL | undefined {
  const header = seen.response.headers.get('location');
  if (Math.floor(seen.response.status / 100) !== 3 || header === null || !URL.canParse(header, seen.request.url)) return undefined;
  return new URL(header, seen.request.url);
}

/** The parameters of a redirect's query and fragment (RFC 6749 4.2.2 answers in the fragment). */
export function redirectParameters(location: URL): Array<[string, string]> {
  return [...location.searchParams, ...new URLSearchParams(location.hash.replace(/^#/, ''))];
}

/** The last bodies read as JSON, each read once for every check that judges it (a vehicle list was parsed by five). */
const lastRead = new Map<string, { json: unknown } | undefined>();
const LAST_READ = 8;

/**
 * A body's JSON, parsed once for all the checks of its exchange: `{ json }`, or undefined when it is not JSON. The checks
 * only read it; a test that changes what it parsed parses its own (model/vehicle-list.ts, parseJsonLoosely).
 */
export function readJson(text: string): { json: unknown } | undefined {
  if (lastRead.has(text)) return lastRead.get(text);
  let read: { json: unknown } | undefined;
  try {
    read = { json: JSON.parse(text) as unknown };
  } catch {
    read = undefined;
  }
  if (lastRead.size >= LAST_READ) lastRead.delete(lastRead.keys().next().value!);
  lastRead.set(text, read);
  return read;
}

/** The answer's JSON whatever its content type says, read once for all the checks (`readJson`); undefined when not JSON. */
export const answerJson = (seen: Pick<Exchange, 'bodyText'>): unknown => readJson(seen.bodyText)?.json;

/** The answer's body as a JSON object, whatever its content type says; undefined otherwise. */
export function answerObject(seen: Exchange): Json | undefined {
  const body = answerJson(seen);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Json) : undefined;
}

export const statusClassOf = (seen: Exchange) => Math.floor(seen.response.status / 100);

/** The operationId the exchange was about: the one at its address, or the one its sender aimed at. */
export const operationIdOf = (seen: Exchange) => seen.operation?.operationId ?? seen.pathOnly?.operationId ?? seen.meta.operationId;
