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
    // Stryker disable next-line ConditionalExpression,LogicalOperator: adding a known credential again, or undefined, changes nothing
    if (value === undefined || this.#fixed.has(value)) return;
    this.#fixed.add(value);
    this.#tokens.delete(value);
    this.#redactor.add(value);
  }

  /** An issued token: redacted while it is among the latest tokens. Called on every authorized call, so cheap when known. */
  addToken(value: string | undefined): void {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: adding a known token again changes nothing, and no token is undefined
    if (value === undefined || this.#tokens.has(value) || this.#fixed.has(value)) return;
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
