// Several openapi-fetch middlewares as one, run as openapi-fetch runs a list of them. openapi-fetch awaits each hook of
// each middleware on every call, a turn of the event loop's microtasks apiece; as one middleware, the client's own
// cost one await per hook, and a hook that returns at once runs the next one at once.
import type { Middleware } from 'openapi-fetch';

type OnRequest = NonNullable<Middleware['onRequest']>;
type OnResponse = NonNullable<Middleware['onResponse']>;
type OnError = NonNullable<Middleware['onError']>;
type RequestParams = Parameters<OnRequest>[0];
type ResponseParams = Parameters<OnResponse>[0];
type ErrorParams = Parameters<OnError>[0];
type RequestResult = Awaited<ReturnType<OnRequest>>;
type ResponseResult = Awaited<ReturnType<OnResponse>>;
type ErrorResult = Awaited<ReturnType<OnError>>;

/**
 * One middleware that runs `middlewares` as openapi-fetch would: every onRequest in order, where a Request returned
 * replaces the request for the next ones and a Response returned ends the requests' turn (openapi-fetch then sends
 * nothing); every onResponse in reverse order, each given the response the one before returned; every onError in
 * reverse order, where an Error returned replaces the error for the next ones and a Response returned ends the turn. It
 * returns what openapi-fetch would go on with (undefined when nothing changed). A hook that is absent from every
 * middleware is absent from the sequence, so that openapi-fetch does not await it.
 * @internal
 */
export function sequence(...middlewares: Middleware[]): Middleware {
  const onRequest = middlewares.flatMap((middleware) => (middleware.onRequest ? [middleware.onRequest.bind(middleware)] : []));
  const onResponse = middlewares.flatMap((middleware) => (middleware.onResponse ? [middleware.onResponse.bind(middleware)] : []));
  const onError = middlewares.flatMap((middleware) => (middleware.onError ? [middleware.onError.bind(middleware)] : []));
  onResponse.reverse();
  onError.reverse();
  // A hook of one middleware alone is that hook: openapi-fetch runs it as it would have.
  const combined: Partial<Record<keyof Middleware, unknown>> = {};
  if (onRequest.length)
    combined.onRequest = onRequest.length === 1 ? onRequest[0] : (params: RequestParams) => requests(onRequest, 0, params, params.request);
  if (onResponse.length)
    combined.onResponse =
      onResponse.length === 1 ? onResponse[0] : (params: ResponseParams) => responses(onResponse, 0, params, params.response);
  if (onError.length)
    combined.onError = onError.length === 1 ? onError[0] : (params: ErrorParams) => errors(onError, 0, params, params.error);
  return combined as Middleware;
}

/** A promise, or any thenable: what `await` waits for. */
function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

// Each hook's result is handled by a next* function, called at once when the hook returned a value and once it settles
// when it returned a promise: a hook that returns at once costs no closure and no promise.

/** The onRequest hooks from `index` on; `first` is the request openapi-fetch gave the sequence. */
function requests(hooks: OnRequest[], index: number, params: RequestParams, first: Request): RequestResult | PromiseLike<RequestResult> {
  if (index === hooks.length) return params.request === first ? undefined : params.request;
  const result = hooks[index]!(params);
  return isThenable(result)
    ? result.then((settled) => nextRequest(hooks, index, params, first, settled))
    : nextRequest(hooks, index, params, first, result);
}

/** After onRequest hook `index` returned `result`: a Response ends the turn, a Request is the request from now on. */
function nextRequest(hooks: OnRequest[], index: number, params: RequestParams, first: Request, result: RequestResult) {
  if (result instanceof Response) return result;
  return requests(hooks, index + 1, result ? { ...params, request: result } : params, first);
}

/** The onResponse hooks from `index` on; `first` is the response openapi-fetch gave the sequence. */
function responses(
  hooks: OnResponse[],
  index: number,
  params: ResponseParams,
  first: Response,
): ResponseResult | PromiseLike<ResponseResult> {
  if (index === hooks.length) return params.response === first ? undefined : params.response;
  const result = hooks[index]!(params);
  return isThenable(result)
    ? result.then((settled) => nextResponse(hooks, index, params, first, settled))
    : nextResponse(hooks, index, params, first, result);
}

/** After onResponse hook `index` returned `result`: a Response is the response from now on. */
function nextResponse(hooks: OnResponse[], index: number, params: ResponseParams, first: Response, result: ResponseResult) {
  return responses(hooks, index + 1, result ? { ...params, response: result } : params, first);
}

/** The onError hooks from `index` on; `first` is the error openapi-fetch gave the sequence. */
function errors(hooks: OnError[], index: number, params: ErrorParams, first: unknown): ErrorResult | PromiseLike<ErrorResult> {
  if (index === hooks.length) return params.error === first ? undefined : (params.error as Error);
  const result = hooks[index]!(params);
  return isThenable(result)
    ? result.then((settled) => nextError(hooks, index, params, first, settled))
    : nextError(hooks, index, params, first, result);
}

/** After onError hook `index` returned `result`: a Response ends the turn, an Error is the error from now on. */
function nextError(hooks: OnError[], index: number, params: ErrorParams, first: unknown, result: ErrorResult) {
  if (result instanceof Response) return result;
  return errors(hooks, index + 1, result ? { ...params, error: result } : params, first);
}
