// Loads the bundled specs (dist/openapi/*.json) for the spec tests, and resolves local $refs inside them.
import { existsSync, readFileSync } from 'node:fs';
import { API_NAMES, bundlePath, type ApiName } from '../../spec-core/apis.ts';

export type Doc = Record<string, any>;

export function loadBundle(api: ApiName): Doc {
  const path = bundlePath(api, 'json');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run bundle\` before the spec tests.`);
  return JSON.parse(readFileSync(path, 'utf8'));
}

export const bundles = Object.fromEntries(API_NAMES.map((api) => [api, loadBundle(api)])) as Record<ApiName, Doc>;

/** Follows a local `$ref` ("#/components/...") to the node it names; other nodes are returned as they are. */
export function deref(doc: Doc, node: Doc): Doc {
  let current = node;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref loop at ${node.$ref}`);
    current = pointer(doc, current.$ref.replace(/^#/, ''));
  }
  return current;
}

export function pointer(doc: Doc, path: string): any {
  return path
    .split('/')
    .slice(1)
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc as any);
}

export interface OperationRef {
  api: ApiName;
  path: string;
  method: string;
  operation: Doc;
  /** The servers that apply: the path's own, else the document's. */
  servers: Doc[];
}

export function operations(): OperationRef[] {
  return API_NAMES.flatMap((api) => {
    const doc = bundles[api];
    return Object.entries(doc.paths as Record<string, Doc>).flatMap(([path, item]) =>
      ['get', 'put', 'post', 'delete', 'patch']
        .filter((method) => item[method])
        .map((method) => ({ api, path, method, operation: item[method], servers: item.servers ?? doc.servers })),
    );
  });
}

export function operation(operationId: string): OperationRef {
  const found = operations().find((o) => o.operation.operationId === operationId);
  if (!found) throw new Error(`operation ${operationId} is not in any bundle`);
  return found;
}
