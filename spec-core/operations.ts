// The operations of one bundled document: each path item's methods, with the JSON pointer of the operation.
// Readers add what they need (the suite its base URL variable and validators, the docs their notes) on top of this list.
import { HTTP_METHODS, type HttpMethod } from './http-methods.ts';
import { escapePointer } from './pointer.ts';

type Json = Record<string, any>;

export interface PathOperation {
  path: string;
  /** Lower case, as the key in the path item. */
  method: HttpMethod;
  /** JSON pointer of the operation inside its bundle, e.g. "/paths/~1vehicles/get". */
  pointer: string;
  /** The operation object. */
  op: Json;
  /** The path item that holds it (its `servers` and `parameters` apply to the operation too). */
  item: Json;
}

/** Every operation of a document, in path order and then in the order of HTTP_METHODS. */
export function operationsOf(doc: Json): PathOperation[] {
  return Object.entries<Json>(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      pointer: `/paths/${escapePointer(path)}/${method}`,
      op: item[method] as Json,
      item,
    })),
  );
}
