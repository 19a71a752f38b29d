// The credentials one client knows (secrets, keys, issued tokens), so that errors can be scrubbed of them.
// Errors must never carry credentials; a server may echo a header or a form field back in its error body.

const REDACTED = '[REDACTED]';
// Tokens are added as they are issued; keep only the recent ones so a long-lived client does not grow.
const MAX_SECRETS = 32;

export class Secrets {
  readonly #values: string[] = [];

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; real credentials are longer.
    if (!value || value.length < 4 || this.#values.includes(value)) return;
    this.#values.push(value);
    if (this.#values.length > MAX_SECRETS) this.#values.splice(0, this.#values.length - MAX_SECRETS);
  }

  redact(text: string): string {
    let result = text;
    for (const value of this.#values) {
      if (result.includes(value)) result = result.split(value).join(REDACTED);
      // Form-encoded and URL-encoded echoes of the secret are credentials too.
      const encoded = encodeURIComponent(value);
      if (encoded !== value && result.includes(encoded)) result = result.split(encoded).join(REDACTED);
    }
    return result;
  }
}
