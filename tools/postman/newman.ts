// Runs a Postman collection with newman (Postman's own runner, Node API) and returns what a test needs of the run.
import { createRequire } from 'node:module';
import type { PostmanCollectionJson } from '../interop/consumers.ts';
import type { PostmanEnvironment } from './build-collection.ts';

/** The part of newman's run summary read here (newman ships no types). */
export type NewmanSummary = {
  run: {
    stats: Record<'requests' | 'assertions', { total: number; failed: number }>;
    failures: { source?: { id?: string; name?: string }; error?: { test?: string; message?: string } }[];
  };
  environment: { values: { one(key: string): { value: unknown } | undefined } };
};
type Newman = {
  run(options: object, callback: (error: Error | null, summary: NewmanSummary) => void): void;
};
const newman = createRequire(import.meta.url)('newman') as Newman;

export type CollectionRun = {
  collection: PostmanCollectionJson;
  environment: PostmanEnvironment;
  /** Environment values to override for this run, e.g. the base URLs of a sandbox on another port. */
  overrides?: Record<string, string>;
  iterationCount?: number;
};

/** One newman run, silent (no reporter: the output would show the request URLs and bodies), bounded in time. */
export function runCollection({ collection, environment, overrides = {}, iterationCount = 1 }: CollectionRun): Promise<NewmanSummary> {
  const envVar = Object.entries(overrides).map(([key, value]) => ({ key, value }));
  return new Promise((resolve, reject) => {
    newman.run(
      { collection, environment, envVar, iterationCount, reporters: [], timeoutRequest: 10_000, timeoutScript: 10_000, timeout: 60_000 },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });
}
