// What an operation of a bundle defines, as the workflow checks ask it: its parameters, the headers its security
// schemes travel in, its server variables (with the LP_* variable each one is filled from), its request body's fields,
// its documented statuses, and whether a JSON pointer or a header names something of a documented answer.
import type { PathOperation } from './operations.ts';
import { resolveRef, unescapePointer } from './pointer.ts';

type Json = Record<string, any>;

/** The parameters of an operation and of its path item, resolved. */
export function parametersOf(doc: Json, { op, item }: PathOperation): Array<{ name: string; in: string }> {
  return [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Json) => resolveRef<{ name: string; in: string }>(doc, p));
}

/** The headers the operation's security schemes use: an apiKey's header, `Authorization` for OAuth 2.0 and bearer. */
export function securityHeaders(doc: Json, { op }: PathOperation): string[] {
  const names = ((op.security ?? doc.security ?? []) as Json[]).flatMap((requirement) => Object.keys(requirement));
  return names.flatMap((name) => {
    const scheme = resolveRef<Json>(doc, doc.components?.securitySchemes?.[name]) ?? {};
    if (scheme.type === 'apiKey' && scheme.in === 'header') return [String(scheme.name)];
    if (scheme.type === 'oauth2' || (scheme.type === 'http' && scheme.scheme === 'bearer')) return ['Authorization'];
    return [];
  });
}

/** The servers that apply to an operation: its own, its path item's, else the document's. */
const serversOf = (doc: Json, { op, item }: PathOperation): Json[] => op.servers ?? item.servers ?? doc.servers ?? [];

/** Each server variable of the operation and the LP_* variable its description names (the kit's convention). */
export function serverVariables(doc: Json, operation: PathOperation): Map<string, string | undefined> {
  const variables = new Map<string, string | undefined>();
  for (const server of serversOf(doc, operation))
    for (const [name, variable] of Object.entries<Json>(server.variables ?? {}))
      variables.set(name, /\bLP_[A-Z_]+\b/.exec(String(variable.description ?? ''))?.[0]);
  return variables;
}

/** The schema's branches and itself: properties may come from any of them. */
function alternatives(doc: Json, node: unknown, depth = 0): Json[] {
  const schema = resolveRef<Json>(doc, node);
  if (!schema || typeof schema !== 'object' || depth > 10) return [];
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
  return [schema, ...branches.flatMap((branch: unknown) => alternatives(doc, branch, depth + 1))];
}

/** Whether a JSON pointer (`/0/vin`) names something a schema defines: an item of an array, a property of an object. */
export function schemaHasPointer(doc: Json, schema: unknown, pointer: string): boolean {
  if (pointer === '') return alternatives(doc, schema).length > 0;
  const [segment, ...rest] = pointer.slice(1).split('/');
  const key = unescapePointer(segment!);
  const next = alternatives(doc, schema).flatMap((s) => [
    ...(/^\d+$/.test(key) && s.items ? [s.items] : []),
    ...(s.properties && key in s.properties ? [s.properties[key]] : []),
  ]);
  return next.some((child) => schemaHasPointer(doc, child, rest.length ? `/${rest.join('/')}` : ''));
}

/** The documented responses of an operation whose status is a success (2xx) or a redirect (3xx), resolved. */
export function successResponses(doc: Json, { op }: PathOperation): Json[] {
  return Object.entries<Json>(op.responses ?? {})
    .filter(([status]) => /^[23]/.test(status))
    .map(([, response]) => resolveRef<Json>(doc, response));
}

/** The schemas of a request body or response, by media type. */
export const mediaSchemas = (doc: Json, holder: unknown): Map<string, unknown> =>
  new Map(Object.entries<Json>(resolveRef<Json>(doc, holder)?.content ?? {}).map(([type, media]) => [type, media.schema]));

/** Whether a status (200) is documented by the operation, as a code or as a range (2XX). */
export function documentsStatus({ op }: PathOperation, status: string): boolean {
  const statuses = Object.keys(op.responses ?? {});
  return statuses.includes(status) || statuses.includes(`${status[0]}XX`);
}

/** Whether some success or redirect answer of the operation declares the header (case-insensitive). */
export function documentsHeader(doc: Json, operation: PathOperation, header: string): boolean {
  return successResponses(doc, operation).some((response) =>
    Object.keys(response.headers ?? {}).some((name) => name.toLowerCase() === header.toLowerCase()),
  );
}
