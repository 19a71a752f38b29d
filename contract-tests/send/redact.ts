// Scrubs credentials from everything the suite prints or writes: the configured secrets and every token or code
// the target issues during the run (the contract fetch registers those as it sees them).
// The redactor is the client's own (src/redact.ts), so the suite and the client hide the same spellings.
import { Redactor } from '../../src/redact.ts';
import { SECRET_VARIABLES, type Target } from './target.ts';

export { Redactor, REDACTED } from '../../src/redact.ts';

export function redactorFor(target: Target): Redactor {
  return new Redactor(SECRET_VARIABLES.map((name) => target.env[name]));
}
