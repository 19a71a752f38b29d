// A copy of one bundle with what Redoc does not show by itself, in partner language: the list of operations first
// (each linked to its section), how each operation is authenticated, the `expired_in` quirk where a token is
// involved, the assumptions marked "Not confirmed by the published documentation" next to the operations they
// concern, the spec downloads and the support contact.
import { API_NAMES, type ApiName } from '../../spec-core/apis.ts';
import { collectAssumptions, type Assumption } from '../../spec-core/assumptions.ts';
import { operationsOf, type PathOperation } from '../../spec-core/operations.ts';
import { resolveRef } from '../../spec-core/pointer.ts';
import { NOT_CONFIRMED, partnerWording, placeAssumptions } from './partner-language.ts';
import type { SupportContact } from './support.ts';
import { dotenvLines, readCredentials } from '../../sandbox/config.ts';

type Json = Record<string, any>;

/** Follows local `$ref`s (the bundles have no others) so that schemas can be inspected; undefined for a non-object. */
const deref = (doc: Json, node: unknown): Json | undefined => {
  const target = resolveRef<unknown>(doc, node);
  return target !== null && typeof target === 'object' ? (target as Json) : undefined;
};

/** Property names of a schema, including those of its oneOf/anyOf/allOf branches. */
function propertyNames(doc: Json, schemaNode: unknown, depth = 0): Set<string> {
  const schema = deref(doc, schemaNode);
  const names = new Set<string>(Object.keys(schema?.properties ?? {}));
  if (!schema || depth > 10) return names;
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    for (const n of propertyNames(doc, branch, depth + 1)) names.add(n);
  }
  return names;
}

const bodySchemas = (doc: Json, holder: unknown): unknown[] =>
  Object.values<Json>(deref(doc, holder)?.content ?? {}).map((media) => media.schema);

/** One line a reader can act on: which header carries which credential, for one scheme. */
function describeScheme(doc: Json, name: string): string {
  const scheme = deref(doc, doc.components?.securitySchemes?.[name]);
  if (!scheme) throw new Error(`security requirement names an unknown scheme "${name}"`);
  if (scheme.type === 'apiKey') return `\`${scheme.in === 'header' ? `${scheme.name}: <key>` : scheme.name}\` (${name})`;
  if (scheme.type === 'oauth2' || (scheme.type === 'http' && scheme.scheme === 'bearer')) {
    return `\`Authorization: Bearer <ACCESS_TOKEN>\` (${name})`;
  }
  return `${name} (${scheme.type})`;
}

/** Plain-text (markdown) statement of how an operation is authenticated, from its security requirements. */
export function authenticationOf(doc: Json, { op }: PathOperation): string {
  const requirements: Json[] = op.security ?? doc.security ?? [];
  if (requirements.length === 0 || requirements.every((r) => Object.keys(r).length === 0)) {
    const sendsSecret = (op.requestBody ? bodySchemas(doc, op.requestBody) : []).some((s) => propertyNames(doc, s).has('client_secret'));
    return sendsSecret
      ? 'no credential header: the client authenticates with `client_id` and `client_secret` in the form body'
      : 'none: this is not an API call with credentials (it is opened in the user\u2019s browser)';
  }
  const alternatives = requirements.map((r) =>
    Object.keys(r)
      .map((name) => describeScheme(doc, name))
      .join(' **and** '),
  );
  return alternatives.length === 1 ? alternatives[0]! : `either ${alternatives.join('; or ')}`;
}

const usesOAuth2 = (doc: Json, { op }: PathOperation) =>
  ((op.security ?? doc.security ?? []) as Json[]).some((r) =>
    Object.keys(r).some((name) => deref(doc, doc.components?.securitySchemes?.[name])?.type === 'oauth2'),
  );

const returnsExpiredIn = (doc: Json, { op }: PathOperation) =>
  Object.values<Json>(op.responses ?? {}).some((r) => bodySchemas(doc, r).some((s) => propertyNames(doc, s).has('expired_in')));

export const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();
const cell = (text: string) => oneLine(text).replace(/\|/g, '\\|');

const EXPIRED_IN_NOTE =
  '> **Watch out: `expired_in`.** The service token endpoint (`POST {base_url}/token`) returns the lifetime as ' +
  '`expired_in`, not the usual `expires_in`; the identity provider uses `expires_in`. Tokens are valid for 1 hour.';

/** The anchor Redoc gives an operation when built without its router (`disableRouter`): `#/<tag>/<operationid>`. */
export function operationAnchor(op: Json): string {
  const tag = String(op.tags?.[0] ?? 'default')
    .toLowerCase()
    .replace(/\s+/g, '-');
  return `#/${tag}/${String(op.operationId).toLowerCase()}`;
}

/** The spec files copied next to the pages, relative to them (see build.ts). */
export const specDownloads = (api: ApiName) => ({ yaml: `specs/${api}.yaml`, json: `specs/${api}.json` });

/** One assumption as partners read it: what is assumed, then why. */
export const assumptionNote = (a: Assumption) =>
  `> **${NOT_CONFIRMED}:** ${partnerWording(oneLine(a.what))}\n>\n> _Why we assume it:_ ${partnerWording(oneLine(a.why))}`;

/** "not confirmed by the published documentation", to follow a count. */
export const NOT_CONFIRMED_AFTER_COUNT = NOT_CONFIRMED.replace(/^Not/, 'not');

/** The one line of an operation that opens onto its assumptions: "3 points not confirmed by the published documentation". */
export const notConfirmedSummary = (count: number) => `${count} ${count === 1 ? 'point' : 'points'} ${NOT_CONFIRMED_AFTER_COUNT}`;

/**
 * An operation's assumptions, collapsed into one line that opens (a `<details>`): a dozen notes in full would push the
 * operation's parameters off a laptop's first screen. Each note keeps its marker inside, so the text stays on the page.
 */
export const assumptionNotes = (assumptions: Assumption[]) =>
  `<details class="lp-not-confirmed">\n<summary>${notConfirmedSummary(assumptions.length)}</summary>\n\n` +
  `${assumptions.map(assumptionNote).join('\n\n')}\n\n</details>`;

/**
 * A path as HTML whose lines may break only after a `/`: each piece up to a `/` is a span the docs' style keeps on one
 * line (`white-space: nowrap`, so not at a `-` either), with a `<wbr>` between pieces. `/vehicles/{vehicleNumber}` never
 * shows as `/vehicles/{ve hicleNumber}` in a narrow column, and the text copied is the path as it is.
 */
export const breakablePath = (path: string) =>
  path
    .split(/(?<=\/)/)
    .map((piece) => `<span>${piece.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</span>`)
    .join('<wbr>');

/** `npm run sandbox` listens here unless told otherwise (sandbox/README.md). */
export const SANDBOX_ORIGIN = 'http://127.0.0.1:4020';

/** The sandbox's base URL of each `LP_*` variable (`npm run sandbox` on its default port), for the servers panel. */
const SANDBOX_BASE_URLS = new Map(
  dotenvLines(SANDBOX_ORIGIN, readCredentials({}), { vehicleNumber: '', customerNumber: '' }).map((line) => [line.name, line.value]),
);

/**
 * The servers a page shows, partner first. A spec's server is `{variable}` with the local mock's address as the
 * variable's default, which is what the mock, the contract suite and the tools read (the specs stay as they are).
 * On the page the first server is the partner's own base URL from onboarding; the local mock and the sandbox follow,
 * each described as the local option it is.
 */
export function serversForDocs(servers: Json[]): Json[] {
  return servers.flatMap((server) => {
    const [name, variable] = Object.entries<Json>(server.variables ?? {})[0] ?? [];
    const lpVariable = /`(LP_[A-Z_]+)`/.exec(String(variable?.description ?? ''))?.[1];
    if (!name || !variable || !lpVariable || server.url !== `{${name}}`) return [server];
    const what = /^[^.;]*/.exec(String(server.description ?? ''))?.[0]?.trim() || 'The API';
    const sandbox = SANDBOX_BASE_URLS.get(lpVariable);
    return [
      {
        url: server.url,
        description: `${what} at your base URL: the one you were given at onboarding (${lpVariable}), path prefix included.`,
        variables: {
          [name]: {
            ...variable,
            description: `Your base URL from onboarding (${lpVariable}), path prefix included. Until you set it, the local mock's address (a local option below).`,
          },
        },
      },
      { url: String(variable.default), description: 'Local option: the mock (npm run mock), every API at one address.' },
      ...(sandbox ? [{ url: sandbox, description: 'Local option: the sandbox (npm run sandbox), with public test credentials.' }] : []),
    ];
  });
}

/** The support block in markdown: name, then every way to reach it. */
export function supportMarkdown(support: SupportContact): string {
  const ways = [
    support.email ? `email [${support.email}](mailto:${support.email})` : '',
    support.url ? `[${support.url}](${support.url})` : '',
  ].filter(Boolean);
  return [`**${support.name}**: ${ways.join(' or ')}.`, support.note ?? ''].filter(Boolean).join(' ');
}

/** Every description and summary the page shows, in partner language (x- extensions are not shown and stay as they are). */
function rewordDescriptions(node: unknown): void {
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || key === 'example' || key === 'examples') continue;
    if ((key === 'description' || key === 'summary') && typeof value === 'string') (node as Json)[key] = partnerWording(value);
    else rewordDescriptions(value);
  }
}

export interface EnrichOptions {
  support: SupportContact;
}

/** The copy of one bundle that its Redoc page is built from; the bundle itself is left unchanged. */
export function enrichForDocs(api: ApiName, bundle: Json, { support }: EnrichOptions): Json {
  const doc: Json = structuredClone(bundle);
  const { byOperation, apiWide } = placeAssumptions(doc, collectAssumptions(api, bundle));
  rewordDescriptions(doc);
  const operations = operationsOf(doc);
  for (const operation of operations) {
    const { op } = operation;
    const notes = [`**Authentication:** ${authenticationOf(doc, operation)}.`];
    if (usesOAuth2(doc, operation) || returnsExpiredIn(doc, operation)) notes.push(EXPIRED_IN_NOTE);
    const own = byOperation.get(String(op.operationId)) ?? [];
    if (own.length > 0) notes.push(assumptionNotes(own));
    op.description = `${notes.join('\n\n')}\n\n${op.description ?? ''}`.trimEnd();
  }
  for (const holder of [doc, ...Object.values<Json>(doc.paths ?? {}), ...operations.map(({ op }) => op)]) {
    if (Array.isArray(holder.servers)) holder.servers = serversForDocs(holder.servers);
  }
  // The docs' own license wording comes with the package's licence decision; an internal marker is not shown.
  if (/^UNLICENSED$/i.test(String(doc.info.license?.identifier ?? doc.info.license?.name ?? ''))) delete doc.info.license;
  doc.info.contact = {
    name: support.name,
    ...(support.email ? { email: support.email } : {}),
    ...(support.url ? { url: support.url } : {}),
  };

  const links = API_NAMES.map((other) => (other === api ? `**${other}**` : `[${other}](${other}.html)`)).join(' · ');
  // Two columns, the operation's summary under its path: three would leave each a third of a laptop's middle column.
  const rows = operations.map(
    (o) =>
      `| <a href="${operationAnchor(o.op)}"><code class="lp-path">${o.method.toUpperCase()} ${breakablePath(o.path)}</code></a><br>` +
      `${cell(o.op.summary ?? '')} | ${cell(authenticationOf(doc, o))} |`,
  );
  const placedCount = new Set([...byOperation.values()].flat()).size;
  const downloads = specDownloads(api);
  doc.info.description = [
    `[← All Logistics Partner APIs](index.html) · ${links} · [Flows](workflows.html) · Spec: [YAML](${downloads.yaml}) · [JSON](${downloads.json})`,
    '',
    '| Operation | Authentication |',
    '|---|---|',
    ...rows,
    '',
    doc.info.description ?? '',
    '',
    `## ${NOT_CONFIRMED}`,
    '',
    placedCount + apiWide.length === 0
      ? 'Everything on this page is stated by the published API documentation.'
      : `Everything on this page is stated by the published API documentation, except ${placedCount + apiWide.length} points ` +
        'where it says "not shown" and these specs had to decide. Each operation lists those that concern it, under ' +
        `"N points ${NOT_CONFIRMED_AFTER_COUNT}"` +
        (apiWide.length > 0 ? '; these concern the API as a whole:' : '.'),
    '',
    ...apiWide.map((a) => `${assumptionNote(a)}\n`),
    '## Support',
    '',
    supportMarkdown(support),
    '',
  ].join('\n');
  return doc;
}
