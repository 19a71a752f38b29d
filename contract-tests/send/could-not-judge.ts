// The third outcome of a request: no answer the suite may judge (unreachable, TLS, timed out, throttled past the tries,
// a write's unknown outcome). The transport throws it; the published client's error may wrap it, and couldNotJudgeOf
// finds it inside, so a check through the client is never judged on the transport's failure.
import type { TransportStats } from './transport-stats.ts';

/** What ended a request without an answer the suite can judge; the kind decides the words, never the verdict. */
export type UnjudgedKind = 'unreachable' | 'tls' | 'timeout' | 'throttled' | 'outcome-unknown';

/** A request that got no answer the suite may judge: reported as "could not judge", never as a violation or a pass. */
export class CouldNotJudge extends Error {
  override readonly name = 'CouldNotJudge';
  /** What the request met before it gave up (set by the transport). */
  stats?: TransportStats;

  constructor(
    readonly kind: UnjudgedKind,
    message: string,
  ) {
    super(message);
    // The stack would point into this file: the failure is the target's (or the network's), not the suite's.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * The CouldNotJudge behind an error: itself, or the published client's ApiError that wrapped it (a network failure
 * whose detail is "CouldNotJudge: ..."), so a check through the client is never judged on the transport's failure.
 */
export function couldNotJudgeOf(error: unknown): CouldNotJudge | undefined {
  if (error instanceof CouldNotJudge) return error;
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  // ApiError's message: "<operation> <outcome>: CouldNotJudge: <message> [<url>]".
  const text = /CouldNotJudge: (.*?)(?: \[[^\]]*\])?$/s.exec(error.message)?.[1];
  if (text === undefined) return undefined;
  const kind: UnjudgedKind = /throttled/.test(text)
    ? 'throttled'
    : UNKNOWN_OUTCOME.test(text)
      ? 'outcome-unknown'
      : /no answer within/.test(text)
        ? 'timeout'
        : TLS_ONCE.test(text)
          ? 'tls'
          : 'unreachable';
  return new CouldNotJudge(kind, text.trim());
}

/** What a write's line with an unknown outcome ends with: couldNotJudgeOf and vitest's retry (vitest.config.ts) know it by it. */
export const UNKNOWN_OUTCOME_TEXT =
  'it is not sent again, since a second write could record twice, so whether the target processed it is unknown';
export const UNKNOWN_OUTCOME = /it is not sent again, since a second write could record twice/;
/** What a TLS failure's line ends with; couldNotJudgeOf knows a TLS failure by it. */
export const TLS_ONCE_TEXT = '(tried once: no second try mends TLS)';
const TLS_ONCE = /no second try mends TLS/;
