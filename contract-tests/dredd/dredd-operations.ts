// What dredd's hooks need to know of each operation, taken from the operations registry and the model, written as JSON
// beside dredd's documents (dredd loads its hooks with require, so they read data, not the suite's modules): how to
// recognise a transaction's operation, where its credentials go and from which LP_* variable, which body fields come
// from which LP_* variable, whether it writes or needs a user, and the values the spec answers with 400.
import { writeFileSync } from 'node:fs';
import { CREDENTIALS } from '../model/credentials.ts';
import { specModel } from '../model/model-entries.ts';
import type { VariableValue } from '../model/valid-requests.ts';

export interface DreddOperation {
  operationId: string;
  method: string;
  /** The path below the server as a regular expression's source (each {parameter} one segment). */
  path: string;
  /** Path parameters, each with the list operation whose answer holds a value of it (a vehicle the key sees). */
  pathValues: Record<string, { listPath: string; baseVariable: string } | undefined>;
  credentials: Array<{ in: 'header' | 'form'; name: string; prefix: string; variable: string }>;
  body: 'form' | 'json' | 'none';
  /** Body fields whose valid value is an LP_* variable's. */
  variables: Record<string, string>;
  /** Body fields whose schema fixes their value (a grant_type's const). */
  constants: Record<string, string>;
  /** Its success is a redirect of the user's browser (the authorization endpoint). */
  redirects: boolean;
  writes: boolean;
  needsCode: boolean;
  malformed?: Record<string, string | null>;
}

/** The operations of the first body shape of each (dredd sends one request per documented response). */
export function dreddOperations(): DreddOperation[] {
  const firsts = specModel().filter((entry, i) => specModel().findIndex((e) => e.operationId === entry.operationId) === i);
  return firsts.map((entry) => {
    const { operation, table } = entry;
    const lists = specModel().filter(
      (e) => e.operation.api === operation.api && e.operation.method === 'GET' && !e.operation.path.includes('{'),
    );
    const pathValues = Object.fromEntries(
      entry.parameters
        .filter((p) => p.in === 'path')
        .map((p) => [p.name, lists[0] && { listPath: lists[0].operation.path, baseVariable: lists[0].operation.baseVariable }]),
    );
    const variables = Object.fromEntries(
      Object.entries(table.values ?? {}).flatMap(([name, value]) =>
        (value as VariableValue).variable ? [[name, (value as VariableValue).variable]] : [],
      ),
    );
    return {
      operationId: entry.operationId,
      method: operation.method,
      path: operation.pathPattern.source,
      pathValues,
      credentials: entry.credentials.map((id) => {
        const { where, variables: vars } = CREDENTIALS[id];
        return {
          in: where.in,
          name: where.name,
          prefix: where.in === 'header' ? (where.prefix ?? '') : '',
          variable: id === 'bearer' ? 'token' : vars[0]!,
        };
      }),
      body: entry.body,
      variables,
      constants: Object.fromEntries(
        Object.entries((entry.bodySchema?.properties ?? {}) as Record<string, { const?: unknown }>).flatMap(([name, schema]) =>
          schema.const === undefined ? [] : [[name, String(schema.const)]],
        ),
      ),
      redirects: Object.keys(operation.responses).some((status) => status.startsWith('3')),
      writes: Boolean(table.writes),
      needsCode: Boolean(table.needsCode),
      ...(table.malformed ? { malformed: Object.fromEntries(Object.entries(table.malformed).map(([k, v]) => [k, v ?? null])) } : {}),
    };
  });
}

/** The service token endpoint's address parts, whose token the hooks put in every bearer credential. */
export function dreddTokenSource(): { path: string; baseVariable: string } {
  const source = specModel().find((e) => e.credentials.includes('clientSecret') && e.operation.security.length === 0)!;
  return { path: source.operation.path, baseVariable: source.operation.baseVariable };
}

export function writeDreddOperations(file: string): void {
  writeFileSync(file, `${JSON.stringify({ operations: dreddOperations(), tokenSource: dreddTokenSource() }, null, 2)}\n`);
}
