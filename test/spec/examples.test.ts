// Every example in the bundles (named media-type examples, header examples and schema `example`s) validates against its schema.
import { describe, expect, it } from 'vitest';
import { createSpecAjv } from '../../spec-core/ajv.ts';
import { API_NAMES, type ApiName } from '../../spec-core/apis.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { escapePointer } from '../../spec-core/pointer.ts';
import { bundles, type Doc } from './bundles.ts';

interface ExampleCase {
  api: ApiName;
  /** JSON pointer of the schema the example must satisfy. */
  schemaPointer: string;
  where: string;
  value: unknown;
}

/** Walks a bundle and yields every example with the pointer of the schema it belongs to. */
function collectExamples(api: ApiName, node: any, pointer: string, out: ExampleCase[]): ExampleCase[] {
  if (node === null || typeof node !== 'object') return out;
  // A media type or a header/parameter: named examples belong to its `schema`.
  if (node.schema && node.examples && typeof node.examples === 'object') {
    for (const [name, example] of Object.entries<Doc>(node.examples)) {
      out.push({ api, schemaPointer: `${pointer}/schema`, where: `${pointer}/examples/${name}`, value: example.value });
    }
  }
  // A schema with its own `example`.
  if ('example' in node && (node.type || node.$ref || node.properties || node.items)) {
    out.push({ api, schemaPointer: pointer, where: `${pointer}/example`, value: node.example });
  }
  for (const [key, child] of Object.entries(node)) {
    if (key !== 'examples' && key !== 'example') collectExamples(api, child, `${pointer}/${escapePointer(key)}`, out);
  }
  return out;
}

const ajv = createSpecAjv(bundles, (api) => `urn:lp:${api}`);
const validatorFor = (api: ApiName) => (schemaPointer: string) => ajv.compile({ $ref: `urn:lp:${api}#${schemaPointer}` });

const cases = API_NAMES.flatMap((api) => collectExamples(api, bundles[api], '', []));

describe('examples', () => {
  it('every operation has a named example for every documented status with a body', () => {
    for (const api of API_NAMES) {
      for (const { op } of operationsOf(bundles[api])) {
        for (const [status, response] of Object.entries<Doc>(op.responses)) {
          const named = [
            ...Object.values<Doc>(response.content ?? {}).flatMap((media) => Object.keys(media.examples ?? {})),
            ...Object.values<Doc>(response.headers ?? {}).flatMap((header) => Object.keys(header.examples ?? {})),
          ];
          expect(named, `${op.operationId} ${status}`).toContain(`${op.operationId}${status}Example`);
        }
        for (const media of Object.values<Doc>(op.requestBody?.content ?? {})) {
          expect(Object.keys(media.examples ?? {}), op.operationId).toContain(`${op.operationId}RequestExample`);
        }
      }
    }
  });

  it('finds examples to check in every bundle', () => {
    for (const api of API_NAMES) expect(cases.filter((c) => c.api === api).length, api).toBeGreaterThan(15);
  });

  it.each(cases.map((c) => [`${c.api}#${c.where}`, c] as const))('%s is valid against its schema', (_, c) => {
    const validate = validatorFor(c.api)(c.schemaPointer);
    const valid = validate(c.value);
    expect(validate.errors ?? [], JSON.stringify(c.value)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the validator rejects an example that breaks its schema', () => {
    const validate = validatorFor('token')('/components/schemas/ServiceTokenResponse');
    expect(validate({ access_token: 'x', token_type: 'Bearer', expires_in: 3600 })).toBe(false);
    expect(validate({ access_token: 'x', token_type: 'Bearer', expired_in: 3600 })).toBe(true);
  });
});
