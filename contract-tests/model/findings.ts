// What the judge finds on an exchange, as data: every report renders the same facts from it. The type sits in the model,
// below the one fetch, which carries the findings of each exchange to its sender without knowing who found them.

/** The x-assumption a finding contradicts or confirms: its node in the bundle and its text. */
export interface AssumptionId {
  api: string;
  /** JSON pointer of the node carrying the x-assumption. */
  pointer: string;
  /** A part of its `what` that picks it among several at that node. */
  match: string;
}

export interface Finding {
  /** The exchange check that found it (judge/checks). */
  check: string;
  /** The promise broken or kept, in a partner's words (a seed section, an RFC clause, a security property). */
  promise: string;
  /** A violation fails the run; a contradicted assumption is reported (failing only when strict); a confirmed one is
   * credited; a note (a clause that is not a MUST today, or binds the client) is reported and judges nothing. */
  verdict: 'violation' | 'contradicted' | 'confirmed' | 'note';
  /** What the answer showed, redacted. */
  message: string;
  /** For a contradicted or confirmed assumption: which. */
  assumption?: AssumptionId;
  /** The clause broken, by its id in the judge's clause tables (judge/clauses/standings.ts): how it reads today decides
   * whether the finding is a violation or a note. */
  clause?: string;
}
