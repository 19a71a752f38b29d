// JSON pointers (RFC 6901) into a bundle and the local `$ref`s ("#/components/...") that the bundles use.
// The bundles hold no other kind of reference, so nothing here fetches or reads files.

/** One key as a pointer segment: `~` becomes `~0`, `/` becomes `~1`. */
export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

export const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The node at a JSON pointer ("/components/schemas/Vehicle", with or without a leading "#"), or undefined. */
export function nodeAt(doc: unknown, pointer: string): any {
  return pointer
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .reduce<any>((node, segment) => (node === null || typeof node !== 'object' ? undefined : node[unescapePointer(segment)]), doc);
}

const MAX_HOPS = 20;

/** Follows local `$ref`s from `node` to the node they name; any other node is returned as it is. Throws on a loop. */
export function resolveRef<T = any>(doc: unknown, node: unknown): T {
  let current: any = node;
  for (let hops = 0; current !== null && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops >= MAX_HOPS)
      throw new Error(`$ref chain longer than ${MAX_HOPS} hops (a loop?) from ${String((node as { $ref: string }).$ref)}`);
    current = nodeAt(doc, current.$ref);
  }
  return current as T;
}
