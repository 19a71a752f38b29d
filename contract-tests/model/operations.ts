// The operations registry, derived from the bundles: every operation, and on an endpoint whose request body is one of
// several shapes (the identity provider's grant types) every shape, with its method, server variable and path, every
// parameter the specs document (path, query and header parameters, form and JSON fields, each credential with where it
// travels, the Content-Type of a body) and the section of the published documentation it stands for (x-seed-section).
// The one list of operations: the model's requests, the operators, the authentication matrix, the exchange checks,
// coverage, promises and dredd's hooks read it; a self-test builds it from a copy of a bundle with a made-up operation.
import type { ApiName } from '../../spec-core/apis.ts';
import { resolveRef as resolveInDoc } from '../../spec-core/pointer.ts';
import { CREDENTIALS, type CredentialId, credentialOfFormField, credentialOfScheme } from './credentials.ts';
import { type Bundles, listOperations, memoByBundles, type Operation, specBundles } from './spec.ts';

type Json = Record<string, unknown>;

/** Where a documented parameter travels. */
export type Place = 'path' | 'query' | 'header' | 'form' | 'json';

export interface DocumentedParameter {
  name: string;
  in: Place;
  required: boolean;
  /** Its schema, $refs resolved (a header that carries a credential has none: `{}`). */
  schema: Json;
  /** The credential it carries, when it is one. */
  credential?: CredentialId;
}

export interface RegistryEntry {
  operationId: string;
  /** The body shape on an endpoint with several (the grant type); 'default' elsewhere. */
  variant: string;
  operation: Operation;
  /** The request body's kind, as the variant's media type says. */
  body: 'form' | 'json' | 'none';
  /** The media type a valid request sends its body as. */
  mediaType?: string;
  /** The variant's body schema, $refs resolved. */
  bodySchema?: Json;
  /** Where that schema is defined in the bundle, when it is a component (its JSON pointer: its x-assumptions' place). */
  bodySchemaPointer?: string;
  /** Its request examples' values (the named examples of the media type, of this variant). */
  examples: Json[];
  parameters: DocumentedParameter[];
  /** Credentials every security alternative of the spec requires (and the form's client password). */
  credentials: CredentialId[];
  /** Credentials some alternative carries and another does not (accepted, not required). */
  optional: CredentialId[];
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** The variants of a body schema: one per discriminator value of a oneOf, else the schema itself; each with its $ref. */
function variantsOf(raw: Json | undefined, resolve: (node: unknown) => Json): Array<[string, Json | undefined, string | undefined]> {
  const schema = raw ? resolve(raw) : undefined;
  const discriminator = schema?.discriminator as { propertyName?: string; mapping?: Record<string, string> } | undefined;
  if (!schema || !Array.isArray(schema.oneOf) || !discriminator?.mapping)
    return [['default', schema, typeof raw?.$ref === 'string' ? raw.$ref : undefined]];
  return Object.entries(discriminator.mapping).map(([value, ref]) => [value, resolve({ $ref: ref }), ref]);
}

/** The credentials each security alternative carries: required (in all) and optional (in some). */
function securityCredentials(operation: Operation, doc: Json): { required: CredentialId[]; optional: CredentialId[] } {
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>;
  const alternatives = operation.security.map(
    (requirement) =>
      new Set(
        Object.keys(requirement).flatMap((name) => {
          const id = credentialOfScheme(resolveInDoc(doc, schemes[name]) ?? {});
          return id ? [id] : [];
        }),
      ),
  );
  const all = new Set(alternatives.flatMap((set) => [...set]));
  const required = [...all].filter((id) => alternatives.every((set) => set.has(id)));
  return { required, optional: [...all].filter((id) => !required.includes(id)) };
}

/** The documented parameters of one variant: path, query and header parameters, body fields, credential headers. */
function parametersOf(operation: Operation, bodySchema: Json | undefined, body: RegistryEntry['body'], credentials: CredentialId[]) {
  const parameters: DocumentedParameter[] = operation.parameters.flatMap((p) =>
    ['path', 'query', 'header'].includes(String(p.in))
      ? [{ name: String(p.name), in: p.in as Place, required: Boolean(p.required), schema: (p.schema ?? {}) as Json }]
      : [],
  );
  const required = new Set((bodySchema?.required as string[] | undefined) ?? []);
  for (const [name, schema] of Object.entries((bodySchema?.properties ?? {}) as Record<string, Json>)) {
    const credential = body === 'form' ? credentialOfFormField(name) : undefined;
    parameters.push({
      name,
      in: body === 'form' ? 'form' : 'json',
      required: required.has(name),
      schema,
      ...(credential ? { credential } : {}),
    });
  }
  for (const id of credentials) {
    const where = CREDENTIALS[id].where;
    if (where.in === 'header' && !parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === where.name.toLowerCase()))
      parameters.push({ name: where.name, in: 'header', required: true, schema: {}, credential: id });
  }
  return parameters;
}

/** Every operation and variant of the given bundles (the suite's own: `specRegistry()`). */
export function registryOf(docs: Partial<Record<ApiName, Json>>, operations: Operation[] = listOperations(docs)): RegistryEntry[] {
  return operations.flatMap((operation) => {
    const doc = docs[operation.api]!;
    const resolve = (node: unknown) => resolveInDoc<Json>(doc, node) ?? {};
    const content = operation.requestBody?.content ?? {};
    const mediaType = [FORM, JSON_TYPE].find((type) => type in content) ?? Object.keys(content)[0];
    const body: RegistryEntry['body'] = !mediaType ? 'none' : mediaType === FORM ? 'form' : 'json';
    const security = securityCredentials(operation, doc);
    const media = mediaType ? content[mediaType] : undefined;
    const examples = Object.values(media?.examples ?? {}).map((e) => (e.value ?? {}) as Json);
    return variantsOf(media?.schema as Json | undefined, resolve).map(([variant, bodySchema, ref]): RegistryEntry => {
      const formCredentials =
        body === 'form' ? Object.keys((bodySchema?.properties ?? {}) as Json).flatMap((name) => credentialOfFormField(name) ?? []) : [];
      const credentials = [...security.required, ...formCredentials];
      const discriminator = (media?.schema && (resolve(media.schema).discriminator as { propertyName?: string } | undefined))?.propertyName;
      return {
        operationId: operation.operationId,
        variant,
        operation,
        body,
        ...(mediaType ? { mediaType } : {}),
        ...(bodySchema ? { bodySchema } : {}),
        ...(ref?.startsWith('#/') ? { bodySchemaPointer: ref.slice(1) } : {}),
        examples: discriminator ? examples.filter((e) => e[discriminator] === variant) : examples,
        parameters: parametersOf(operation, bodySchema, body, [...credentials, ...security.optional]),
        credentials,
        optional: security.optional,
      };
    });
  });
}

export const registryOfBundles = memoByBundles((docs) => registryOf(docs));
/** The suite's registry, from the kit's bundles. */
export const specRegistry = (): RegistryEntry[] => registryOfBundles(specBundles());

export const entryLabel = (entry: Pick<RegistryEntry, 'operationId' | 'variant'>) =>
  entry.variant === 'default' ? entry.operationId : `${entry.operationId} (${entry.variant})`;

/** The entry of an operation (its first variant unless one is named); throws naming an unknown one. */
export function registryEntry(operationId: string, variant?: string, registry: RegistryEntry[] = specRegistry()): RegistryEntry {
  const found = registry.find((e) => e.operationId === operationId && (variant === undefined || e.variant === variant));
  if (!found) throw new Error(`no operation "${operationId}"${variant ? ` (${variant})` : ''} in the bundles`);
  return found;
}

/** What the registry lacks against its bundles: an operation without a seed section, a parameter without a place. */
export function registryProblems(registry: RegistryEntry[], sections: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const entry of registry) {
    const section = entry.operation.seedSection;
    if (!section) problems.push(`${entryLabel(entry)}: the operation has no x-seed-section`);
    else if (!(section in sections))
      problems.push(`${entryLabel(entry)}: x-seed-section ${section} is not a section of openapi/seed-gaps.yaml`);
    if (entry.body !== 'none' && !entry.parameters.some((p) => p.in === 'form' || p.in === 'json'))
      problems.push(`${entryLabel(entry)}: its request body documents no field`);
  }
  return problems;
}

/** Whether a schema (followed through $refs, arrays and combinators) is or holds the component `name`. */
function holds(doc: Json, schema: unknown, name: string, depth = 0): boolean {
  if (!schema || typeof schema !== 'object' || depth > 8) return false;
  const node = schema as Json;
  if (node.$ref === `#/components/schemas/${name}`) return true;
  if (typeof node.$ref === 'string') return holds(doc, resolveInDoc(doc, node), name, depth + 1);
  return [
    node.items,
    ...((node.allOf ?? []) as unknown[]),
    ...((node.anyOf ?? []) as unknown[]),
    ...((node.oneOf ?? []) as unknown[]),
  ].some((part) => holds(doc, part, name, depth + 1));
}

/** The operations (once each, by id) whose entries meet `predicate`. */
const idsWhere = (predicate: (entry: RegistryEntry) => boolean, registry: RegistryEntry[]) => [
  ...new Set(registry.filter(predicate).map((e) => e.operationId)),
];

/** An operation's success answers hold the schema component `name` (a Vehicle, a list of them). */
export function answersHold(entry: RegistryEntry, name: string, docs: Partial<Record<ApiName, Json>>): boolean {
  const doc = docs[entry.operation.api]!;
  return Object.entries(entry.operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .some(([, response]) => Object.values(response.content ?? {}).some((media) => holds(doc, media.schema, name)));
}

/** The operations by the role the RFCs and the seed give them, derived from the registry (so a new operation of the
 * same kind is judged alike): token endpoints take the client password (RFC 6749 2.3.1), bearer-protected ones a
 * bearer token (RFC 6750), the authorization endpoint answers with a redirect (RFC 6749 3.1), and the fleet's
 * operations answer vehicles (seed 2.1). */
export function rolesOf(registry: RegistryEntry[], docs: Partial<Record<ApiName, Json>>) {
  return {
    tokenEndpoints: idsWhere((e) => e.credentials.includes('clientSecret'), registry),
    bearerProtected: idsWhere((e) => e.credentials.includes('bearer'), registry),
    authorization: idsWhere((e) => Object.keys(e.operation.responses).some((s) => s.startsWith('3')), registry),
    answersVehicles: idsWhere((e) => answersHold(e, 'Vehicle', docs), registry),
    /** One vehicle by a path parameter named like the vehicle's own number. */
    getsOneVehicle: idsWhere(
      (e) => answersHold(e, 'Vehicle', docs) && e.parameters.some((p) => p.in === 'path' && p.name === 'vehicleNumber'),
      registry,
    ),
    /** A list of vehicles that its query filters. */
    listsVehicles: idsWhere((e) => answersHold(e, 'VehicleList', docs), registry),
  };
}

export type Roles = ReturnType<typeof rolesOf>;
export const rolesOfBundles = memoByBundles((docs: Bundles) => rolesOf(registryOfBundles(docs), docs));
/** The roles of the kit's operations. */
export const specRoles = (): Roles => rolesOfBundles(specBundles());
