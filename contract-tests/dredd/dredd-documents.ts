// Writes the documents dredd reads: each bundle split by server address (service, identity provider, fleet), in the
// OpenAPI 3.0 form dredd 14 understands (parameter-level examples, one `example` per media type).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { type Operation, specBundles, specOperations } from '../model/spec.ts';
import type { LpVariable } from '../send/target.ts';

type Json = Record<string, unknown>;

export interface DreddDocument {
  /** e.g. "token-LP_AUTH_URL" */
  name: string;
  /** OpenAPI 3.0 copy for dredd. */
  file: string;
  /** OpenAPI 3.1 copy (schemas untouched) for Prism's validating proxy. */
  proxyFile: string;
  baseVariable: LpVariable;
  operationIds: string[];
}

/** Dredd expands path templates from parameter examples and sends one `example` per media type. */
function dreddReady(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dreddReady);
  if (!node || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-assumption' || key === 'servers') continue;
    copy[key] = dreddReady(value);
  }
  const schema = copy.schema as Json | undefined;
  if ('in' in copy && copy.required === true && copy.example === undefined && schema?.example !== undefined) copy.example = schema.example;
  const examples = copy.examples as Record<string, { value?: unknown }> | undefined;
  if ('schema' in copy && examples && !('in' in copy) && copy.example === undefined) {
    copy.example = Object.values(examples)[0]?.value;
    delete copy.examples;
  }
  return copy;
}

/**
 * Dredd turns several media types of one response into an exact-match list for Content-Type, so
 * "application/json; charset=utf-8" would fail against [application/json, application/problem+json]. Its copy keeps
 * application/json alone where both are documented; the validating proxy keeps both.
 */
function jsonOnlyErrors(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(jsonOnlyErrors);
  if (!node || typeof node !== 'object') return node;
  const copy: Json = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, jsonOnlyErrors(value)]));
  const content = copy.content as Json | undefined;
  if (content && 'application/json' in content && 'application/problem+json' in content) {
    const { 'application/problem+json': _problem, ...rest } = content;
    copy.content = rest;
  }
  return copy;
}

export function writeDreddDocuments(dir: string): DreddDocument[] {
  mkdirSync(dir, { recursive: true });
  const groups = new Map<string, Operation[]>();
  for (const op of specOperations()) {
    const name = `${op.api}-${op.baseVariable}`;
    groups.set(name, [...(groups.get(name) ?? []), op]);
  }
  return [...groups.entries()].map(([name, ops]) => {
    const bundle = specBundles()[ops[0]!.api];
    const paths: Json = {};
    for (const op of ops) {
      paths[op.path] ??= {};
      const item = paths[op.path] as Json;
      const source = (bundle.paths as Json)[op.path] as Json;
      item[op.method.toLowerCase()] = { ...(source[op.method.toLowerCase()] as Json), security: op.security };
    }
    const document = dreddReady({ ...bundle, servers: [{ url: '/' }], paths }) as Json;
    // Security is per operation here; the document-level one would apply to the other group's operations too.
    delete document.security;
    const file = join(dir, `${name}.dredd.yaml`);
    const proxyFile = join(dir, `${name}.prism.yaml`);
    writeFileSync(file, stringify({ ...(jsonOnlyErrors(document) as Json), openapi: '3.0.3' }));
    // The proxy only judges responses; with security left in, it would answer a credential-less request itself.
    const proxyPaths = Object.fromEntries(
      Object.entries(document.paths as Record<string, Json>).map(([path, item]) => [
        path,
        Object.fromEntries(Object.entries(item).map(([method, op]) => [method, { ...(op as Json), security: [] }])),
      ]),
    );
    writeFileSync(proxyFile, stringify({ ...document, paths: proxyPaths }));
    return { name, file, proxyFile, baseVariable: ops[0]!.baseVariable, operationIds: ops.map((op) => op.operationId) };
  });
}
