// The spec core's own helpers, on the real bundles and on small documents made to break them.
import { describe, expect, it } from 'vitest';
import { createSpecAjv } from '../../spec-core/ajv.ts';
import { API_NAMES } from '../../spec-core/apis.ts';
import { bundlesFresh, sourcesDigest } from '../../spec-core/bundles.ts';
import { HTTP_METHODS, isHttpMethod } from '../../spec-core/http-methods.ts';
import { operationsOf } from '../../spec-core/operations.ts';
import { escapePointer, nodeAt, resolveRef, unescapePointer } from '../../spec-core/pointer.ts';
import { bundles } from './bundles.ts';

describe('JSON pointers and $ref', () => {
  it('escapes "~" before "/" and reads back the same key', () => {
    expect(escapePointer('a/b~c')).toBe('a~1b~0c');
    expect(unescapePointer(escapePointer('~1/~0'))).toBe('~1/~0');
    expect(nodeAt({ 'a/b~c': { x: 1 } }, `#/${escapePointer('a/b~c')}/x`)).toBe(1);
  });

  it('answers undefined for a place that does not exist, even below a scalar', () => {
    expect(nodeAt({ a: 'text' }, '/a/length')).toBeUndefined();
    expect(nodeAt({ a: {} }, '/a/b/c')).toBeUndefined();
  });

  it('follows a chain of local $refs and names the start of a loop', () => {
    const doc = { a: { $ref: '#/b' }, b: { $ref: '#/c' }, c: { type: 'string' }, x: { $ref: '#/y' }, y: { $ref: '#/x' } };
    expect(resolveRef(doc, doc.a)).toEqual({ type: 'string' });
    expect(resolveRef(doc, 'not a node')).toBe('not a node');
    expect(() => resolveRef(doc, doc.x)).toThrow(/loop\?\) from #\/y/);
  });
});

describe('operations', () => {
  it('lists every operation of every bundle once, at a pointer that leads back to it', () => {
    const ids = API_NAMES.flatMap((api) =>
      operationsOf(bundles[api]).map(({ pointer, op, method }) => {
        expect(nodeAt(bundles[api], pointer)).toBe(op);
        expect(isHttpMethod(method)).toBe(true);
        return String(op.operationId);
      }),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['listVehicles', 'getVehicle', 'requestServiceToken', 'recordLoadMilestoneEvent']));
  });

  it('knows every method a path item may hold, and nothing else', () => {
    const item = Object.fromEntries([...HTTP_METHODS, 'servers', 'parameters', 'summary'].map((key) => [key, { operationId: key }]));
    expect(operationsOf({ paths: { '/a': item } }).map((o) => o.method)).toEqual([...HTTP_METHODS]);
    expect(isHttpMethod('parameters')).toBe(false);
  });
});

describe('the ajv factory', () => {
  it('checks formats, never coerces types, treats "password" as a hint, and reaches into added bundles', () => {
    const ajv = createSpecAjv({ doc: { $defs: { n: { type: 'integer' } } } }, (name) => `urn:test:${name}`);
    const validate = ajv.compile({
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        n: { $ref: 'urn:test:doc#/$defs/n' },
        secret: { type: 'string', format: 'password' },
      },
    });
    expect(validate({ at: '2026-01-01T00:00:00Z', n: 5, secret: 'x' })).toBe(true);
    expect(validate({ at: 'yesterday' })).toBe(false);
    expect(validate({ n: '5' })).toBe(false);
  });
});

describe('bundle freshness', () => {
  it('the bundles these tests read were built from openapi/ as it is now (else: npm run bundle)', () => {
    expect(sourcesDigest()).toMatch(/^[0-9a-f]{64}$/);
    expect(bundlesFresh()).toBe(true);
  });
});
