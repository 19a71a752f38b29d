// Requests of stand-in values, for the self-tests of what the suite generates from the registry: the shape of the
// variants, cases and rows does not depend on the values, and nothing is sent.
import type { ApplicationInputs } from '../operators/operators.ts';
import { place } from '../send/model.ts';
import type { RegistryEntry } from '../model/operations.ts';
import type { RequestParts } from '../send/parts.ts';

/** A valid-looking request of the entry: every parameter holding a stand-in value in its place. */
export function standIns(entry: RegistryEntry): ApplicationInputs {
  let parts: RequestParts = {
    path: {},
    query: [],
    headers: {},
    ...(entry.body === 'form' ? { form: [] } : {}),
    ...(entry.body === 'json' ? { json: {} } : {}),
  };
  const values: Record<string, string> = {};
  for (const parameter of entry.parameters) {
    values[parameter.name] = `stand-in-${parameter.name}-0123456789`;
    parts = place(parts, parameter, values[parameter.name]!);
  }
  return { parts, values };
}
