// What partners read about the specs' assumptions: in their words, not the kit's. The specs' x-assumption entries
// name the published documentation "the seed" and point at JSON pointers; the docs say "the published documentation"
// and attach each assumption to the operations it concerns.
import type { Assumption } from '../../spec-core/assumptions.ts';
import { operationsOf, type PathOperation } from '../../spec-core/operations.ts';
import { nodeAt } from '../../spec-core/pointer.ts';

type Json = Record<string, any>;

/** The heading partners see on every assumption. */
export const NOT_CONFIRMED = 'Not confirmed by the published documentation';

const SECTION = String.raw`(\d+(?:\.\d+)*)`;

/** Rewrites the kit's word for the published API documentation ("the seed", "seed 8") into partner language. */
export function partnerWording(text: string): string {
  return text
    .replace(new RegExp(String.raw`\(seed ${SECTION}\)`, 'g'), '(published documentation, section $1)')
    .replace(new RegExp(String.raw`\bseed ${SECTION}`, 'g'), 'section $1 of the published documentation')
    .replace(/\b([Tt])he seed\b/g, '$1he published documentation')
    .replace(/\bseed's\b/g, "published documentation's");
}

/** Internal words a partner page must not show (checked on the built pages). */
export const INTERNAL_WORDS = [/\bseed\b/i, /Seed §/, /\bUNLICENSED\b/];

/** The local `$ref` targets an operation depends on, transitively, plus the security schemes it uses. */
function reachedPointers(doc: Json, { op, item }: PathOperation): Set<string> {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/') && !reached.has(ref.slice(1))) {
      reached.add(ref.slice(1));
      visit(nodeAt(doc, ref));
    }
    for (const [key, child] of Object.entries(node)) if (key !== '$ref') visit(child);
  };
  visit(op);
  visit(item.parameters);
  for (const requirement of (op.security ?? doc.security ?? []) as Json[]) {
    for (const name of Object.keys(requirement)) {
      reached.add(`/components/securitySchemes/${name}`);
      visit(doc.components?.securitySchemes?.[name]);
    }
  }
  return reached;
}

const within = (pointer: string, place: string) => pointer === place || pointer.startsWith(`${place}/`);

export interface PlacedAssumptions {
  /** operationId -> the assumptions about that operation, its parameters, bodies, schemas and security. */
  byOperation: Map<string, Assumption[]>;
  /** Assumptions about the API as a whole (its info, its root), or about nothing an operation uses. */
  apiWide: Assumption[];
}

/** Attaches each assumption to every operation whose definition contains or references the place it is written at. */
export function placeAssumptions(doc: Json, assumptions: Assumption[]): PlacedAssumptions {
  const byOperation = new Map<string, Assumption[]>();
  const placed = new Set<Assumption>();
  for (const operation of operationsOf(doc)) {
    const reached = [operation.pointer, ...reachedPointers(doc, operation)];
    const own = assumptions.filter((a) => reached.some((place) => within(a.pointer, place)));
    for (const a of own) placed.add(a);
    byOperation.set(String(operation.op.operationId), own);
  }
  return { byOperation, apiWide: assumptions.filter((a) => !placed.has(a)) };
}
