// Scrubs credentials from everything the suite prints or writes: the configured secrets and every token or code
// the target issues during the run (the contract fetch registers those as it sees them).
import { SECRET_VARIABLES, type Target } from './target.ts';

export const REDACTED = '[REDACTED]';
// Short values would redact ordinary words; real credentials are longer.
const MIN_SECRET_LENGTH = 6;

export class Redactor {
  readonly #values = new Set<string>();

  constructor(values: Iterable<string | undefined> = []) {
    for (const value of values) this.add(value);
  }

  add(value: string | undefined): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    this.#values.add(value);
    // Form-encoded echoes of a secret are the secret too.
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.#values.add(encoded);
    const formEncoded = new URLSearchParams({ v: value }).toString().slice(2);
    if (formEncoded !== value) this.#values.add(formEncoded);
  }

  redact(text: string): string {
    let result = text;
    // Longest first, so a secret that contains another is removed whole.
    for (const value of [...this.#values].sort((a, b) => b.length - a.length)) {
      if (result.includes(value)) result = result.split(value).join(REDACTED);
    }
    // Bearer tokens seen in headers are never shown, known or not.
    return result.replace(/(Bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/g, `$1${REDACTED}`);
  }

  /** A deep copy of a JSON-like value with every string redacted. */
  redactValue<T>(value: T): T {
    return JSON.parse(this.redact(JSON.stringify(value ?? null))) as T;
  }
}

export function redactorFor(target: Target): Redactor {
  return new Redactor(SECRET_VARIABLES.map((name) => target.env[name]));
}
