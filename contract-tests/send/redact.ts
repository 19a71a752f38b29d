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

/** The longest text, and the most texts, a RememberingRedactor remembers. */
const REMEMBERED_LENGTH = 512;
const REMEMBERED_TEXTS = 2_000;

/**
 * The redactor of a run's worker (send/fetch.ts): the run's, remembering what it made of each short text until it is
 * told of another credential, so that the same texts (a check's message, a request line: the judge redacts those of
 * every exchange) are read once between two credentials.
 */
export class RememberingRedactor extends Redactor {
  // Undefined while the base class's constructor adds the configured credentials (fields come after it).
  private remembered: Map<string, string> | undefined = new Map();
  private readonly told: Set<string> | undefined = new Set();

  override add(value: string | undefined): void {
    // A credential it already hides (the same token seen again) changes nothing it made.
    if (value !== undefined && !this.told?.has(value)) {
      this.told?.add(value);
      this.remembered?.clear();
    }
    super.add(value);
  }

  override delete(value: string): void {
    this.told?.delete(value);
    this.remembered?.clear();
    super.delete(value);
  }

  override redact(text: string): string {
    if (text.length > REMEMBERED_LENGTH || !this.remembered) return super.redact(text);
    let redacted = this.remembered.get(text);
    if (redacted === undefined) {
      redacted = super.redact(text);
      if (this.remembered.size >= REMEMBERED_TEXTS) this.remembered.clear();
      this.remembered.set(text, redacted);
    }
    return redacted;
  }
}

/** The run's redactor for a worker, which redacts the same short texts over and over. */
export const rememberingRedactorFor = (target: Target): RememberingRedactor =>
  new RememberingRedactor(SECRET_VARIABLES.map((name) => target.env[name]));
