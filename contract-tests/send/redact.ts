// Scrubs credentials from everything the suite prints or writes: the configured secrets and every token or code
// the target issues during the run (the contract fetch registers those as it sees them).
// The redactor is the client's own (src/redact.ts), so the suite and the client hide the same spellings.
import { Redactor } from '../../src/redact.ts';
import { SECRET_VARIABLES } from '../../config/environment.ts';
import type { Target } from './target.ts';

export { Redactor, REDACTED } from '../../src/redact.ts';

/** The one redactor of a run, built from its environment: every configured secret (the LP_* secret variables), in
 * every spelling the kit's redactor knows. The suite's fetch, the runner, its reports and dredd's output all use it. */
export function redactorFromEnvironment(env: Readonly<Record<string, string | undefined>>): Redactor {
  return new Redactor(SECRET_VARIABLES.map((name) => env[name]));
}

export const redactorFor = (target: Target): Redactor => redactorFromEnvironment(target.env);
