// The operations a path item of an OpenAPI 3.1 document can hold, in the order the specification lists them.
// Constants only, so that any reader (even one that must stay free of yaml and ajv) can import it.
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

const METHOD_SET: ReadonlySet<string> = new Set(HTTP_METHODS);
export const isHttpMethod = (key: string): key is HttpMethod => METHOD_SET.has(key);

/** RFC 9110 9.2.1: the methods that ask for nothing to change, as a client sends them (TRACE, safe too, is one fetch
 * cannot send). In any case. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method.toUpperCase());

/** The methods fetch refuses a request body for (the Fetch standard's Request constructor). In any case. */
const BODILESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);
export const refusesBody = (method: string): boolean => BODILESS_METHODS.has(method.toUpperCase());
