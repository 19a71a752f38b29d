// The credentials one client knows (secrets, keys, issued tokens), so that errors can be scrubbed of them with the
// kit's redactor. Errors must never carry credentials; a server may echo a header or a form field back in its error
// body or headers, in any encoding.
import { Redactor } from './redact.js';

// Issued tokens rotate, so only the recent ones are kept and a long-lived client does not grow. Configured credentials
// (client secret, keys, codes) are few and never dropped.
const MAX_TOKENS = 32;

/** @internal */
export class Secrets {
  readonly #redactor = new Redactor();
  readonly #fixed = new Set<string>();
  /** Insertion order is age: the first is the oldest. */
  readonly #tokens = new Set<string>();

  /** A configured credential: redacted for the life of the client. */
  add(value: string | undefined): void {
    // Adding a known credential again changes nothing, so it is not looked up first.
    // Stryker disable next-line ConditionalExpression: the redactor ignores undefined, and no credential is looked up as undefined
    if (value === undefined) return;
    this.#fixed.add(value);
    this.#tokens.delete(value);
    this.#redactor.add(value);
  }

  /**
   * An issued token: redacted while it is among the latest tokens. A token that is also a configured credential stays
   * one (never rotated out). Called on every authorized call: adding a known token again moves nothing (a Set keeps its
   * first place) and the redactor already has it.
   */
  addToken(value: string | undefined): void {
    if (value === undefined || this.#fixed.has(value)) return;
    this.#tokens.add(value);
    this.#redactor.add(value);
    if (this.#tokens.size > MAX_TOKENS) {
      const oldest = this.#tokens.values().next().value!;
      this.#tokens.delete(oldest);
      this.#redactor.delete(oldest);
    }
  }

  redact(text: string): string {
    return this.#redactor.redact(text);
  }
}
