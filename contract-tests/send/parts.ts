// A request as parts, before it is sent: checks change one part of a valid request and send the rest as it is. The
// address is the operation's (its server and path template, from the registry); a check never spells a path. Raw parts
// (already percent-encoded path segments, a query string or a body as written) are for the operators that send what a
// well-behaved client never would: a lone %, an encoding applied twice, a key repeated in JSON.
import type { RegistryEntry } from '../model/operations.ts';

export type Pairs = Array<[string, string]>;

export interface RequestParts {
  /** Path parameter values, percent-encoded when sent. */
  path: Record<string, string>;
  query: Pairs;
  headers: Record<string, string>;
  /** A form body as pairs (a field may repeat). */
  form?: Pairs;
  json?: unknown;
  /** Sent as written, in place of their encoded counterparts. */
  raw?: { path?: Record<string, string>; suffix?: string; query?: string; body?: string };
}

/** One change of the parts; `chain` applies several in order. */
export type Change = (parts: RequestParts) => RequestParts;

export const unchanged: Change = (parts) => parts;
export const chain =
  (...changes: Change[]): Change =>
  (parts) =>
    changes.reduce((next, change) => change(next), parts);

/** A copy deep enough that a change never alters the parts it was given. */
export const copyParts = (parts: RequestParts): RequestParts => ({
  ...parts,
  path: { ...parts.path },
  query: parts.query.map(([n, v]) => [n, v]),
  headers: { ...parts.headers },
  ...(parts.form ? { form: parts.form.map(([n, v]) => [n, v]) } : {}),
  ...(parts.raw ? { raw: { ...parts.raw } } : {}),
});

/** Sets query parameters (an array repeats one; undefined removes it), keeping the others in their order. */
export const withQuery =
  (values: Record<string, string | string[] | undefined>): Change =>
  (parts) => {
    const next = copyParts(parts);
    next.query = next.query.filter(([name]) => !(name in values));
    for (const [name, value] of Object.entries(values))
      for (const item of value === undefined ? [] : Array.isArray(value) ? value : [value]) next.query.push([name, item]);
    return next;
  };

/** Sets form fields (undefined removes one); a form is made when the parts had none. */
export const withForm =
  (values: Record<string, string | undefined>): Change =>
  (parts) => {
    const next = copyParts(parts);
    const form = (next.form ?? []).filter(([name]) => !(name in values));
    for (const [name, value] of Object.entries(values)) if (value !== undefined) form.push([name, value]);
    next.form = form;
    return next;
  };

/** Sets fields of the JSON body (undefined removes one). */
export const withJson =
  (values: Record<string, unknown>): Change =>
  (parts) => {
    const body = { ...((parts.json as Record<string, unknown> | undefined) ?? {}) };
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete body[name];
      else body[name] = value;
    }
    return { ...copyParts(parts), json: body };
  };

/** Sets headers, matched without regard to case (undefined removes one). */
export const withHeaders =
  (values: Record<string, string | undefined>): Change =>
  (parts) => {
    const next = copyParts(parts);
    for (const [name, value] of Object.entries(values)) {
      for (const key of Object.keys(next.headers)) if (key.toLowerCase() === name.toLowerCase()) delete next.headers[key];
      if (value !== undefined) next.headers[name] = value;
    }
    return next;
  };

/** Sets path parameter values. */
export const withPath =
  (values: Record<string, string>): Change =>
  (parts) => ({ ...copyParts(parts), path: { ...parts.path, ...values } });

/** Sets raw parts, sent as written (see RequestParts.raw). */
export const withRaw =
  (raw: NonNullable<RequestParts['raw']>): Change =>
  (parts) => ({ ...copyParts(parts), raw: { ...parts.raw, ...raw } });

/** The value of a form field or query parameter (the first, when repeated). */
export const formValue = (parts: RequestParts, name: string) => parts.form?.find(([n]) => n === name)?.[1];

/** Joins a base URL that may carry a path prefix with a path, keeping the prefix. */
const joinUrl = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** The path of the parts below the server: the template of the operation, its parameters filled in. */
export function pathOf(entry: Pick<RegistryEntry, 'operation'>, parts: RequestParts): string {
  const path = entry.operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    parts.raw?.path?.[name] !== undefined ? parts.raw.path[name]! : encodeURIComponent(parts.path[name] ?? ''),
  );
  return `${path}${parts.raw?.suffix ?? ''}`;
}

/** The URL of the parts on a base URL: the path, then the query (encoded, or raw). */
export function urlOf(base: string, entry: Pick<RegistryEntry, 'operation'>, parts: RequestParts): string {
  const encoded = parts.query.length ? new URLSearchParams(parts.query).toString() : '';
  const query = [encoded, parts.raw?.query ?? ''].filter(Boolean).join('&');
  return `${joinUrl(base, pathOf(entry, parts))}${query ? `?${query}` : ''}`;
}

/** The body as it goes on the wire: raw, the form encoded, the JSON serialized, or none. */
export const bodyOf = (parts: RequestParts): string | undefined =>
  parts.raw?.body ??
  (parts.form ? new URLSearchParams(parts.form).toString() : parts.json === undefined ? undefined : JSON.stringify(parts.json));
