// The credentials one client knows (secrets, keys, issued tokens), so that errors can be scrubbed of them.
// Errors must never carry credentials; a server may echo a header or a form field back in its error body, in any of
// the encodings a request carries them in.

const REDACTED = '[REDACTED]';
// Issued tokens rotate, so only the recent ones are kept and a long-lived client does not grow. Configured credentials
// (client secret, keys, codes) are few and never dropped.
const MAX_TOKENS = 32;

export class Secrets {
  readonly #fixed = new Map<string, readonly string[]>();
  readonly #tokens = new Map<string, readonly string[]>();

  /** A configured credential: redacted for the life of the client. */
  add(value: string | undefined): void {
    if (isCredential(value) && !this.#fixed.has(value)) this.#fixed.set(value, spellingsOf(value));
  }

  /** An issued token: redacted while it is among the latest tokens. */
  addToken(value: string | undefined): void {
    if (!isCredential(value) || this.#fixed.has(value) || this.#tokens.has(value)) return;
    this.#tokens.set(value, spellingsOf(value));
    if (this.#tokens.size > MAX_TOKENS) this.#tokens.delete(this.#tokens.keys().next().value!);
  }

  redact(text: string): string {
    let result = text;
    for (const spellings of [...this.#fixed.values(), ...this.#tokens.values()]) {
      for (const spelling of spellings) if (result.includes(spelling)) result = result.split(spelling).join(REDACTED);
    }
    return result;
  }
}

// Very short values would redact ordinary words; real credentials are longer.
function isCredential(value: string | undefined): value is string {
  return value !== undefined && value.length >= 4;
}

/**
 * The ways a value can appear in an echoed request: as is, URL-encoded (encodeURIComponent), form-encoded
 * (application/x-www-form-urlencoded escapes ~!'()* too, and a space as +), with lower-case hex escapes, and as a JSON
 * string. Longest first, so that a spelling containing another is replaced whole.
 */
function spellingsOf(value: string): readonly string[] {
  const url = encodeURIComponent(value);
  const form = new URLSearchParams([['', value]]).toString().slice(1);
  const json = JSON.stringify(value).slice(1, -1);
  const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  const spellings = new Set([value, url, form, lowerHex(url), lowerHex(form), json, form.replaceAll('+', '%20'), lowerHex(form.replaceAll('+', '%20'))]);
  return [...spellings].sort((a, b) => b.length - a.length);
}
