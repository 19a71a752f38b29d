// The call surface every client publishes: openapi-fetch's methods, typed for what the client does. A call that does
// not succeed throws ApiError, so a result is always the success: `data` is the success body (no `error` branch, no
// `| undefined`). Options are checked exactly: a query key or an option the operation does not define does not compile
// (openapi-fetch lets any extra key through).
import type { Client, ClientPathsWithMethod, FetchOptions, FetchResponse, Middleware, ParseAs } from 'openapi-fetch';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type MediaType = `${string}/${string}`;

type Operation<Paths, Path, Method extends HttpMethod> = Path extends keyof Paths
  ? Paths[Path][Method & keyof Paths[Path]] & Record<string, any>
  : never;

/** The options of one call of `Op`: openapi-fetch's (params, body, headers, signal, ...), `parseAs` 'json' by default. */
export type CallOptions<Op, As extends ParseAs = 'json'> = Omit<FetchOptions<Op>, 'parseAs'> & { parseAs?: As };

/** The options argument: required when the operation has a required parameter or body. */
type CallArgs<Op, As extends ParseAs> =
  Record<string, never> extends FetchOptions<Op> ? [options?: CallOptions<Op, As>] : [options: CallOptions<Op, As>];

/** The success body of `Op`, as `parseAs` reads it. */
export type SuccessData<Op extends Record<string, any>, As extends ParseAs = 'json'> =
  FetchResponse<Op, { parseAs: As }, MediaType> extends infer Result ? (Result extends { data: infer Data } ? Data : never) : never;

/** What a call resolves to: only ever a success (every other outcome throws ApiError). */
export interface CallResult<Data> {
  data: Data;
  response: Response;
}

type CallMethod<Paths extends {}, Method extends HttpMethod> = <
  Path extends ClientPathsWithMethod<Client<Paths>, Method>,
  As extends ParseAs = 'json',
>(
  path: Path,
  ...options: CallArgs<Operation<Paths, Path, Method>, As>
) => Promise<CallResult<SuccessData<Operation<Paths, Path, Method>, As>>>;

/** A typed client of one API (see createTokenClient, createCarriersClient, createFleetClient). */
export interface ApiClient<Paths extends {}> {
  GET: CallMethod<Paths, 'get'>;
  PUT: CallMethod<Paths, 'put'>;
  POST: CallMethod<Paths, 'post'>;
  DELETE: CallMethod<Paths, 'delete'>;
  OPTIONS: CallMethod<Paths, 'options'>;
  HEAD: CallMethod<Paths, 'head'>;
  PATCH: CallMethod<Paths, 'patch'>;
  TRACE: CallMethod<Paths, 'trace'>;
  /** The same call with the method as an argument, e.g. request('get', '/vehicles'). */
  request<Method extends HttpMethod, Path extends ClientPathsWithMethod<Client<Paths>, Method>, As extends ParseAs = 'json'>(
    method: Method,
    path: Path,
    ...options: CallArgs<Operation<Paths, Path, Method>, As>
  ): Promise<CallResult<SuccessData<Operation<Paths, Path, Method>, As>>>;
  /** Adds openapi-fetch middleware after the client's own. */
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
}
