// What a fleet answer actually holds, whatever shape the server gave it. The specs assume the vehicle list is a bare
// JSON array served as application/json (seed 4.5 shows neither): a server that wraps it ({"items": [...]}) or labels it
// otherwise has contradicted an assumption, which the contract fetch reports. The checks that build on the list still
// judge the documented promises (filters, sort, get-one, lessee isolation) from what the server sent; only where the
// vehicles cannot be found at all is a check skipped, naming the contradicted assumption.

/** The JSON of a body whatever its content type says; undefined when it is not JSON. */
export function parseJsonLoosely(bodyText: string): unknown {
  try {
    return JSON.parse(bodyText) as unknown;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const looksLikeVehicle = (value: unknown) => isRecord(value) && ('vehicleNumber' in value || 'vin' in value || 'customerNumber' in value);

export type ListShape = { kind: 'array' } | { kind: 'wrapper'; key: string } | { kind: 'unreadable'; why: string };

/**
 * The vehicles of a list answer: the array itself, or the one array of vehicle-like objects inside a wrapper object
 * (one level deep, as `{"items": [...]}`, `{"data": {"vehicles": [...]}}` is two). With the shape that was found.
 */
export function vehicleListOf<V = Record<string, unknown>>(body: unknown): { vehicles: V[] | undefined; shape: ListShape } {
  if (Array.isArray(body)) return { vehicles: body as V[], shape: { kind: 'array' } };
  if (!isRecord(body)) return { vehicles: undefined, shape: { kind: 'unreadable', why: 'the answer is not a JSON array or object' } };
  const found: Array<[string, unknown[]]> = [];
  const visit = (value: Record<string, unknown>, path: string, depth: number) => {
    for (const [key, inner] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (Array.isArray(inner) && (inner.length === 0 || inner.some(looksLikeVehicle))) found.push([at, inner]);
      else if (isRecord(inner) && depth < 2) visit(inner, at, depth + 1);
    }
  };
  visit(body, '', 1);
  const withVehicles = found.filter(([, list]) => list.length > 0);
  const chosen = withVehicles.length === 1 ? withVehicles[0] : withVehicles.length === 0 && found.length === 1 ? found[0] : undefined;
  if (!chosen)
    return {
      vehicles: undefined,
      shape: {
        kind: 'unreadable',
        why: found.length
          ? `the wrapper holds ${found.length} arrays (${found.map(([k]) => k).join(', ')})`
          : 'no array of vehicles inside the object',
      },
    };
  return { vehicles: chosen[1] as V[], shape: { kind: 'wrapper', key: chosen[0] } };
}

/**
 * Every vehicle-like object anywhere in an answer (arrays, wrappers, a single object), for the security checks: a
 * foreign vehicle must not appear in any of them, whatever shape the server chose.
 */
export function everyVehicleIn(body: unknown, depth = 0): Record<string, unknown>[] {
  if (depth > 4) return [];
  if (Array.isArray(body)) return body.flatMap((item) => everyVehicleIn(item, depth + 1));
  if (!isRecord(body)) return [];
  const inner = Object.values(body).flatMap((value) =>
    typeof value === 'object' && value !== null ? everyVehicleIn(value, depth + 1) : [],
  );
  return looksLikeVehicle(body) ? [body, ...inner] : inner;
}

/** The skip reason of a check that needs the list's vehicles when they cannot be read. */
export const unreadableListReason = (why: string) =>
  `the vehicle list cannot be read (${why}): it contradicts the assumed list shape (a bare JSON array, seed 4.5), see the contradicted assumptions`;
