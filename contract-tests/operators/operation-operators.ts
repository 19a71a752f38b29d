// The operators that change a request as a whole, applied to every operation of the registry: undocumented query
// parameters added; every credential in every channel the RFCs allow or a client might try (the query, another header,
// HTTP Basic as well as the form on the token endpoints); every method, and GET with the body moved into the query;
// every grant type and response type a client could send, with its usual parameters; other Accept and Content-Type
// values. Each answer is judged by the exchange checks (judge/exchange-checks.ts), like every other.
import { HTTP_METHODS } from '../../spec-core/http-methods.ts';
import { CREDENTIALS } from '../model/credentials.ts';
import { specRegistry, type RegistryEntry } from '../model/operations.ts';
import { bodyOf, type Change, copyParts, type RequestParts, withHeaders, withQuery } from '../send/parts.ts';
import { basicCredentials } from './basic-credentials.ts';
import type { Made, OperationOperator, Variant } from './operator.ts';
import { nearMissValues } from './values.ts';

const variant = (label: string, change: Change, extra: Partial<Variant> = {}): Variant => ({ label, change, values: [], ...extra });
const headerOf = (parts: RequestParts, name: string) =>
  Object.entries(parts.headers).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

const undocumentedQuery: OperationOperator = {
  id: 'undocumented-query',
  scope: 'operation',
  title: 'undocumented query parameters added',
  variants(entry, _parts, samples): Made {
    const own = new Set(entry.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    const variants = [
      variant('an unknown query parameter', withQuery({ contract_probe: '1' })),
      variant('an unknown query parameter with a long name and value', withQuery({ ['q'.repeat(300)]: 'v'.repeat(2000) })),
      ...[...own].map((name) =>
        variant(`${name} spelt in upper case`, withQuery({ [name.toUpperCase()]: samples[name] ?? 'contract-probe' })),
      ),
    ];
    // The query parameters of the API's other operations, with their sample values (a get-one with a filter of the list).
    const others = specRegistry().filter((e) => e.operation.api === entry.operation.api && e.operationId !== entry.operationId);
    for (const parameter of others.flatMap((e) => e.parameters.filter((p) => p.in === 'query' && !own.has(p.name) && !p.credential)))
      if (!variants.some((v) => v.label.startsWith(`${parameter.name} `)))
        variants.push(
          variant(
            `${parameter.name} (a parameter of another operation)`,
            withQuery({ [parameter.name]: samples[parameter.name] ?? 'contract-probe' }),
          ),
        );
    return variants;
  },
};

/** The usual query name of a credential that a server might also read from the query. */
const QUERY_NAMES: Record<string, string[]> = { bearer: ['access_token'], subscriptionKey: ['subscription-key'] };

function headerChannels(entry: RegistryEntry, parts: RequestParts): Variant[] {
  return [...entry.credentials, ...entry.optional].flatMap((id) => {
    const where = CREDENTIALS[id].where;
    if (where.in !== 'header') return [];
    const sent = headerOf(parts, where.name);
    const value = sent?.slice(where.prefix?.length ?? 0);
    if (value === undefined) return [];
    const moved = (label: string, change: Change) =>
      variant(`${where.name} ${label}`, (p) => change(withHeaders({ [where.name]: undefined })(p)));
    return [
      ...[where.name, ...(QUERY_NAMES[id] ?? [])].map((name) => moved(`in the query as ${name}`, withQuery({ [name]: value }))),
      ...(id === 'bearer' ? [] : [moved('in the Authorization header', withHeaders({ Authorization: value }))]),
    ];
  });
}

/** RFC 6749 2.3.1: HTTP Basic for the client password, alone, beside the form (two methods) and with a wrong secret. */
function clientPasswordChannels(parts: RequestParts): Variant[] {
  const form = parts.form ?? [];
  const id = form.find(([n]) => n === 'client_id')?.[1];
  const secret = form.find(([n]) => n === 'client_secret')?.[1];
  if (id === undefined || secret === undefined) return [];
  const basic = (user: string, password: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(user)}:${encodeURIComponent(password)}`).toString('base64')}`;
  const withoutForm = (p: RequestParts) => ({
    ...copyParts(p),
    form: (p.form ?? []).filter(([n]) => n !== 'client_id' && n !== 'client_secret'),
  });
  const wrong = nearMissValues(secret)[0]!.value;
  return [
    variant('the client password in HTTP Basic, not the form', (p) => withHeaders({ Authorization: basic(id, secret) })(withoutForm(p))),
    variant('the client password in HTTP Basic and in the form', withHeaders({ Authorization: basic(id, secret) })),
    variant('HTTP Basic with a wrong client secret', (p) => withHeaders({ Authorization: basic(id, wrong) })(withoutForm(p)), {
      values: [wrong],
    }),
    variant('the client password in the query, not the form', (p) => withQuery({ client_id: id, client_secret: secret })(withoutForm(p))),
  ];
}

const credentialChannels: OperationOperator = {
  id: 'credential-channels',
  scope: 'operation',
  title: 'every credential in every channel',
  variants(entry, parts): Made {
    const variants = [...headerChannels(entry, parts), ...clientPasswordChannels(parts)];
    return variants.length ? variants : { inapplicable: 'the operation takes no credential' };
  },
};

/** The body's fields as query parameters (a form's pairs; a JSON object's string members). */
function bodyAsQuery(parts: RequestParts): Array<[string, string]> {
  if (parts.form) return parts.form;
  const json = (parts.json ?? {}) as Record<string, unknown>;
  return Object.entries(json).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]);
}

const methods: OperationOperator = {
  id: 'methods',
  scope: 'operation',
  title: 'every method',
  variants(entry): Made {
    const documented = new Set(
      specRegistry()
        .filter((e) => e.operation.api === entry.operation.api && e.operation.path === entry.operation.path)
        .map((e) => e.operation.method),
    );
    // fetch refuses to send TRACE and CONNECT (forbidden methods of the Fetch standard).
    const variants = HTTP_METHODS.map((m) => m.toUpperCase())
      .filter((method) => !documented.has(method) && method !== 'TRACE' && method !== 'CONNECT')
      .map((method) => variant(`method ${method}`, (p) => p, { method }));
    if (entry.body !== 'none')
      variants.push(
        variant(
          'GET with the body moved into the query string',
          (p) => ({ ...withQuery(Object.fromEntries(groupPairs(bodyAsQuery(p))))(p), form: undefined, json: undefined }),
          { method: 'GET' },
        ),
      );
    return variants;
  },
};

const groupPairs = (pairs: Array<[string, string]>) => {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of pairs) grouped.set(name, [...(grouped.get(name) ?? []), value]);
  return [...grouped];
};

/** Grant types a client could send (RFC 6749 4, RFC 7523, RFC 8628, RFC 8693), each with its usual parameters. */
const GRANTS: Record<string, Record<string, string>> = {
  client_credentials: {},
  authorization_code: { code: 'contract-never-issued', redirect_uri: 'https://client.invalid/callback' },
  password: { username: 'contract-user', password: 'contract-password' },
  refresh_token: { refresh_token: 'contract-never-issued' },
  implicit: {},
  'urn:ietf:params:oauth:grant-type:jwt-bearer': { assertion: 'e30.e30.' },
  'urn:ietf:params:oauth:grant-type:device_code': { device_code: 'contract-never-issued' },
  'urn:ietf:params:oauth:grant-type:token-exchange': {
    subject_token: 'contract-never-issued',
    subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
  },
};
/** Response types of the authorization endpoint (RFC 6749 3.1.1, OpenID Connect's multiple response types). */
const RESPONSE_TYPES: Record<string, Record<string, string>> = {
  token: {},
  id_token: { nonce: 'contract-nonce' },
  'code token': {},
  'code id_token': { nonce: 'contract-nonce' },
  'id_token token': { nonce: 'contract-nonce' },
  none: {},
};

function typeVariants(
  field: 'grant_type' | 'response_type',
  values: Record<string, Record<string, string>>,
  current: string | undefined,
): Variant[] {
  return Object.entries(values)
    .filter(([value]) => value !== current)
    .map(([value, extra]) => {
      const fields = { ...extra, [field]: value };
      const change: Change = (p) => {
        if (field === 'response_type') return withQuery(fields)(p);
        const form = (p.form ?? []).filter(([n]) => !(n in fields) && n !== 'code' && n !== 'redirect_uri' && n !== 'code_verifier');
        return { ...copyParts(p), form: [...form, ...Object.entries(fields)] };
      };
      return variant(`${field}=${value}`, change);
    });
}

const grantTypes: OperationOperator = {
  id: 'grant-types',
  scope: 'operation',
  title: 'every grant type and response type',
  variants(entry, parts): Made {
    const grant = parts.form?.find(([n]) => n === 'grant_type')?.[1];
    if (grant !== undefined) return typeVariants('grant_type', GRANTS, grant);
    const responseType = parts.query.find(([n]) => n === 'response_type')?.[1];
    if (responseType !== undefined) return typeVariants('response_type', RESPONSE_TYPES, responseType);
    return { inapplicable: `${entry.operationId} takes no grant type or response type` };
  },
};

const ACCEPTS = [
  'application/json',
  '*/*',
  'application/json; charset=utf-8',
  'text/html',
  'application/xml',
  'text/html;q=0.9, application/json;q=0.1',
];
const CONTENT_TYPES = ['text/plain', 'application/xml', 'multipart/form-data; boundary=contract-boundary', 'application/octet-stream'];

const mediaTypes: OperationOperator = {
  id: 'media-types',
  scope: 'operation',
  title: 'Accept and Content-Type variations',
  variants(entry, parts): Made {
    const variants = [
      ...ACCEPTS.map((accept) => variant(`Accept: ${accept}`, withHeaders({ Accept: accept }))),
      variant('no Accept header', withHeaders({ Accept: undefined })),
    ];
    const type = entry.mediaType;
    if (!type || bodyOf(parts) === undefined) return variants;
    const other = type === 'application/json' ? 'application/x-www-form-urlencoded' : 'application/json';
    for (const contentType of [`${type}; charset=UTF-8`, `${type}; charset=ISO-8859-1`, type.toUpperCase(), other, ...CONTENT_TYPES])
      variants.push(variant(`Content-Type: ${contentType}`, withHeaders({ 'content-type': contentType })));
    // Without a Content-Type (the model sends an unlabelled body as bytes, which fetch does not label text/plain).
    variants.push(
      variant('no Content-Type', (p) => ({ ...withHeaders({ 'content-type': undefined })(p), raw: { ...p.raw, body: bodyOf(p) ?? '' } })),
    );
    return variants;
  },
};

/** Fields the body's schema does not document (a body with none at all is one of the body shapes, below). */
const undocumentedFields: OperationOperator = {
  id: 'undocumented-fields',
  scope: 'operation',
  title: 'undocumented body fields added',
  variants(entry): Made {
    if (entry.body === 'none') return { inapplicable: 'the operation takes no body' };
    const add =
      (fields: Array<[string, string]>): Change =>
      (p) =>
        p.form
          ? { ...copyParts(p), form: [...p.form, ...fields] }
          : { ...copyParts(p), json: { ...((p.json as object) ?? {}), ...Object.fromEntries(fields) } };
    return [
      variant('an unknown body field', add([['contract_probe', '1']])),
      variant('200 unknown body fields', add(Array.from({ length: 200 }, (_, i) => [`contract_probe_${i}`, '1'] as [string, string]))),
      variant(
        'body field names with brackets',
        add([
          ['client_id[]', 'x'],
          ['a[b][c]', 'y'],
        ]),
      ),
    ];
  },
};

/** A body of the operation's media type as it goes on the wire, written out. */
const rawBody = (label: string, body: string) => variant(label, (p) => ({ ...copyParts(p), raw: { ...p.raw, body } }));

/**
 * The body as a whole in every other shape: zero bytes, and for a JSON body every other kind of JSON text (RFC 8259 2:
 * null, an array, a string, a number, a literal) and an object with no fields. A field-by-field operator never sends
 * these, and a server that reads `body.field` of a body it did not check is a 500 on `null`.
 */
const bodyShapes: OperationOperator = {
  id: 'body-shapes',
  scope: 'operation',
  title: 'the body of zero bytes, null, an array, a scalar or an object with no fields',
  variants(entry, parts): Made {
    const body = bodyOf(parts);
    if (entry.body === 'none' || body === undefined) return { inapplicable: 'the operation takes no body' };
    const zero = rawBody('a body of zero bytes', '');
    if (entry.mediaType !== 'application/json') return [zero];
    return [
      zero,
      rawBody('the JSON null', 'null'),
      rawBody('an empty JSON array', '[]'),
      rawBody('the valid body inside a JSON array', `[${body}]`),
      rawBody('a JSON string', '"contract-probe"'),
      rawBody('a JSON number', '42'),
      rawBody('the JSON literal true', 'true'),
      rawBody('a JSON object with no fields', '{}'),
    ];
  },
};

export const OPERATION_OPERATORS: readonly OperationOperator[] = [
  undocumentedQuery,
  undocumentedFields,
  bodyShapes,
  credentialChannels,
  basicCredentials,
  methods,
  grantTypes,
  mediaTypes,
];
