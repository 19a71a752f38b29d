// What the client tells its caller each time it sends a request again (the transport option `onResend`), and the one
// place that calls the caller's listener. The event carries no header and no body: those hold the credentials.

/**
 * Why a request was sent again: `retry`, after a network error, a timeout, or a 429, 502, 503 or 504 (the `retry`
 * options); `renewed-credential`, after a 401, with a token fetched anew (once per call); `new-connection`, after a
 * kept-alive connection the server had closed before a byte of the answer came (once per call).
 */
export type ResendReason = 'retry' | 'renewed-credential' | 'new-connection';

/** One re-send of a request, told right before it goes out. */
export interface ResendEvent {
  reason: ResendReason;
  /** The operation as `ApiError.operation` names it, e.g. `POST /v1/load-milestone-events`. */
  operation: string;
  /** The request's method, e.g. `POST`. */
  method: string;
  /** The request's URL as `ApiError.url` shows it. */
  url: string;
  /** Which send of the call this is: 2 for the first re-send (`ApiError.attempts` counts the same way). */
  attempt: number;
  /** The status of the answer that caused the re-send; 0 when no answer came (a network error or a timeout). */
  status: number;
}

/** The transport option `onResend`. */
export type ResendListener = (event: ResendEvent) => void;

const ignore = () => undefined;

/**
 * Tells `listener` of a re-send. What it throws, or a promise it returns rejects with, is dropped: listening never
 * changes a call (and a rejection left unhandled would end the process).
 * @internal
 */
export function notifyResend(listener: ResendListener, event: ResendEvent): void {
  let returned: unknown;
  try {
    returned = listener(event);
  } catch {
    // The listener's own failure: the re-send goes ahead as if it had returned.
  }
  if (returned instanceof Promise) returned.catch(ignore);
}
