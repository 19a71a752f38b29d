// What a check works out from an answer alone, kept for the next answer that is the same: a run's answers repeat (a
// live run against the sandbox: 2,800 answers, 393 different bodies of an operation and status), and a check that
// validates or decodes a body would do the same work again for each. Only a result that is a function of its key
// belongs here: every input of the work is in the key, so each answer is still judged as it came.
// Bounded: MAX_ENTRIES results, the oldest forgotten first, and no key over MAX_KEY characters (a long body, such as a
// large vehicle list, is rarely seen twice, and is worked out each time).

const MAX_ENTRIES = 500;
const MAX_KEY = 8_192;

export class AnswerMemo<T> {
  readonly #results = new Map<string, T>();

  /** The result of `work` for `key`: kept from an earlier call with the same key, or worked out now. */
  of(key: string, work: () => T): T {
    if (key.length > MAX_KEY) return work();
    if (this.#results.has(key)) return this.#results.get(key) as T;
    const result = work();
    if (this.#results.size >= MAX_ENTRIES) this.#results.delete(this.#results.keys().next().value!);
    this.#results.set(key, result);
    return result;
  }

  get size(): number {
    return this.#results.size;
  }
}
