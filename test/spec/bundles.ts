// The bundled specs (dist/openapi/*.json) as the spec tests read them, and each operation with the servers that apply.
import { API_NAMES, type ApiName } from '../../spec-core/apis.ts';
import { loadBundles, type Bundle } from '../../spec-core/bundles.ts';
import { operationsOf } from '../../spec-core/operations.ts';

export type Doc = Bundle;

export const bundles: Record<ApiName, Doc> = loadBundles();

export interface OperationRef {
  api: ApiName;
  path: string;
  method: string;
  operation: Doc;
  /** The servers that apply: the path's own, else the document's. */
  servers: Doc[];
}

export function operations(): OperationRef[] {
  return API_NAMES.flatMap((api) =>
    operationsOf(bundles[api]).map(({ path, method, op, item }) => ({
      api,
      path,
      method,
      operation: op,
      servers: item.servers ?? bundles[api].servers,
    })),
  );
}

export function operation(operationId: string): OperationRef {
  const found = operations().find((o) => o.operation.operationId === operationId);
  if (!found) throw new Error(`operation ${operationId} is not in any bundle`);
  return found;
}
