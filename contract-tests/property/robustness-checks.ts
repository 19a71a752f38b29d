// Robustness from the spec, not from examples (property/robustness.ts generates the cases from the bundles and the
// model): every operation of the model, every grant type, never answers a 5xx to its valid request sent
//   - with each request content type of a broad list that its spec does not list, and with none at all;
//   - with each HTTP method its path does not document;
//   - with each string field of its body and each string query or path parameter, one at a time, holding values from
//     the whole of Unicode (credentials and a milestone's load are never damaged; a client_id only as a wrong client).
// Every request goes through the model's send (the contract fetch checks every answer against the spec; any 5xx is a
// violation there too) and the transport; failure messages name the operation, the kind and the field, never a value.
import { describe, expect, it } from 'vitest';
import type { ApiName } from '../../spec-core/apis.ts';
import type { Exchange } from '../send/fetch.ts';
import { record } from '../send/ledger.ts';
import {
  entryLabel,
  MODEL,
  type ModelEntry,
  operationOf,
  reasonIfCannotSend,
  type RequestParts,
  bodyOf,
  send,
  withCredentials,
} from '../send/model.ts';
import { statusClass } from '../send/requests.ts';
import { skipIf } from '../support/skips.ts';
import { operations, resolveRef } from '../send/spec.ts';
import { target } from '../send/target.ts';
import { forEachConcurrently } from '../send/transport.ts';
import {
  BODILESS_METHODS,
  contentTypeCases,
  damagedValue,
  essenceOf,
  listedContentTypes,
  stringFields,
  undocumentedMethods,
  unicodeValuesFor,
  withContentType,
  withField,
} from '../operators/robustness.ts';

/** The entries of one API's operations, labelled for the test names. */
const entriesOf = (api: ApiName) =>
  MODEL.filter((entry) => operationOf(entry).api === api).map((entry) => [entryLabel(entry), entry] as const);

/**
 * Cases the Prism mock cannot take: it answers them with a 5xx or an error body of its own (not an answer from the
 * spec), so on the mock they are left out with a printed reason; every other target gets them all.
 */
const MOCK_CANNOT: Array<{ dimension: string; applies: (entry: ModelEntry, label: string) => boolean; why: string }> = [
  {
    // Prism parses a JSON label itself and answers 400 {"error":{"code":"invalid_json",...}}: its parser's body, not the spec's.
    dimension: 'content types',
    applies: (entry, label) => entry.body === 'form' && /"application\/json/.test(label),
    why: 'Prism parses a body labelled JSON itself and answers its own "invalid_json" error, which is no answer of the spec',
  },
];

/** The cases the mock cannot take are removed (and printed, and noted for the report) on the mock only. */
function takeable<T>(entry: ModelEntry, dimension: string, cases: T[], labelOf: (c: T) => string): T[] {
  if (target.name !== 'mock') return cases;
  return cases.filter((c) => {
    const label = labelOf(c);
    const reason = MOCK_CANNOT.find((m) => m.dimension === dimension && m.applies(entry, label));
    if (!reason) return true;
    const text = `${entryLabel(entry)}: ${dimension}: ${label} not sent to the mock: ${reason.why}`;
    console.log(`skipped case: ${text}`);
    record({ kind: 'note', operationId: entry.operationId, dimension, text, test: expect.getState().currentTestName ?? '' });
    return false;
  });
}

/** A 2xx where the spec documents no such request is worth a line in the report (never a failure: only 5xx fails here). */
function noteIfAccepted(entry: ModelEntry, dimension: string, what: string, seen: Exchange): void {
  if (statusClass(seen.response.status) !== 2) return;
  record({
    kind: 'note',
    operationId: entry.operationId,
    dimension,
    text: `${entryLabel(entry)}: ${what} was accepted (${seen.response.status})`,
    test: expect.getState().currentTestName ?? '',
  });
}

/**
 * The parts with no Content-Type at all: the body as bytes, which fetch sends unlabelled (a string it would label
 * "text/plain;charset=UTF-8" by itself).
 */
function sendUnlabelled(entry: ModelEntry, parts: RequestParts): Promise<Exchange> {
  const body = bodyOf(parts);
  return send(entry, parts, { ...(body === undefined ? {} : { body: new TextEncoder().encode(body) }), dimension: 'content types' });
}

// Robustness probes a server's own code; the Prism mock answers every odd request with its own validation (and the
// sandbox runs these in npm test), so a mock run would only test Prism, at a few CPU-seconds.
const ON_THE_MOCK =
  target.name === 'mock'
    ? 'target "mock" cannot: its answers to odd requests are Prism\'s own validation, not a server\'s code'
    : undefined;

/**
 * Registers the robustness checks of one API's operations (a test file per API, so contract:mutation runs the file of
 * the operation it broke instead of every operation's).
 */
export function robustnessChecks(api: ApiName): void {
  const ENTRIES = entriesOf(api);
  describe(`robustness from the spec (every ${api} operation, every grant type): never a 5xx`, () => {
    it.for(ENTRIES)(
      '%s: the valid request with each request content type the spec does not list, and with none',
      async ([label, entry], ctx) => {
        skipIf(ctx, [entry.operationId], ON_THE_MOCK, await reasonIfCannotSend(entry));
        const operation = operationOf(entry);
        const hasBody = entry.body !== 'none';
        const cases = takeable(entry, 'content types', contentTypeCases(operation, hasBody), (c) => c.label);
        await forEachConcurrently(cases, async (c) => {
          const parts = withContentType(await withCredentials(entry), c.contentType);
          // fetch gives a GET no body: there, the header travels alone.
          const seen =
            c.contentType === undefined ? await sendUnlabelled(entry, parts) : await send(entry, parts, { dimension: 'content types' });
          expect(seen.response.status, `${label}: ${c.label} answered ${seen.response.status}`).toBeLessThan(500);
          // A listed media type with a parameter (a charset) is a valid request: only another media type is worth a note.
          const listed = listedContentTypes(operation).map(essenceOf);
          if (hasBody && !(c.contentType && listed.includes(essenceOf(c.contentType))))
            noteIfAccepted(entry, 'content types', `its body labelled ${c.label}`, seen);
        });
      },
    );

    it.for(ENTRIES)('%s: the valid request with each HTTP method its path does not document', async ([label, entry], ctx) => {
      skipIf(ctx, [entry.operationId], ON_THE_MOCK, await reasonIfCannotSend(entry));
      const operation = operationOf(entry);
      const methods = takeable(entry, 'methods', undocumentedMethods(operation, operations), (m) => m);
      await forEachConcurrently(methods, async (method) => {
        const valid = await withCredentials(entry);
        // fetch refuses a body on GET and HEAD: those go with the valid request's credentials, query and headers only.
        const parts = BODILESS_METHODS.includes(method) ? { ...valid, form: undefined, json: undefined } : valid;
        const seen = await send(entry, parts, { method, dimension: 'methods' });
        expect(
          seen.response.status,
          `${label}: method ${method} (undocumented on ${operation.path}) answered ${seen.response.status}`,
        ).toBeLessThan(500);
        // HEAD is GET without the body (RFC 9110 9.3.2): answering it where GET is documented is expected.
        if (!(method === 'HEAD' && operation.method === 'GET'))
          noteIfAccepted(entry, 'methods', `method ${method}, which ${operation.path} does not document,`, seen);
      });
    });

    it.for(ENTRIES)('%s: each string field and parameter holding values from the whole of Unicode', async ([label, entry], ctx) => {
      skipIf(ctx, [entry.operationId], ON_THE_MOCK, await reasonIfCannotSend(entry));
      const operation = operationOf(entry);
      const resolve = (node: unknown) => resolveRef<Record<string, unknown>>(operation.api, node as Record<string, unknown>);
      const fields = stringFields(entry, operation, await entry.valid(), resolve);
      const cases = takeable(
        entry,
        'unicode',
        fields.flatMap((field) =>
          unicodeValuesFor(field).map(([kind, value]) => ({ field, kind, value, label: `${field.in} ${field.name}: ${kind}` })),
        ),
        (c) => c.label,
      );
      await forEachConcurrently(cases, async ({ field, kind, value }) => {
        const parts = withField(await withCredentials(entry), operation, field, damagedValue(field, value));
        const seen = await send(entry, parts, { dimension: 'unicode' });
        expect(
          seen.response.status,
          `${label}: ${field.in} field ${field.name} holding ${kind}${field.wrongClient ? ' (as a wrong client)' : ''} answered ${seen.response.status}`,
        ).toBeLessThan(500);
      });
    });
  });
}
