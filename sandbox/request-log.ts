// The sandbox's one structured log line per request, in pino's JSON format, built as one string
// instead of through pino's object walk: logging was the largest share of a request's own cost.
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Secrets } from '../src/secrets.ts';

/**
 * Query parameter names whose values are credentials, compared lower-cased without `-`, `_`
 * and `.`, after percent-decoding: `API-Key`, `api_key`, `API%2DKey` and `apikey` are one name.
 */
const SECRET_PARAMETERS = new Set([
  'code',
  'clientsecret',
  'codeverifier',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'token',
  'assertion',
  'clientassertion',
  'apikey',
  'key',
  'subscriptionkey',
  'ocpapimsubscriptionkey',
  'authorization',
  'password',
  'secret',
]);

/** Any query that could name one of SECRET_PARAMETERS matches this (the full check then decides). */
const MAYBE_SECRET_NAME = /code|secret|token|assertion|key|authorization|password|%|\+/i;

function isSecretParameter(rawName: string): boolean {
  let name = rawName;
  if (name.includes('%') || name.includes('+')) {
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      return true; // undecodable: redact rather than guess
    }
  }
  return SECRET_PARAMETERS.has(name.toLowerCase().replace(/[-_.\s]/g, ''));
}

/** pino's numeric value of the info level. */
const INFO = 30;

/**
 * The URL as logged: values of credential-named query parameters become [redacted], and the
 * sandbox's own credentials (`secrets`) are redacted anywhere, in every spelling Secrets knows.
 */
export function redactedUrl(url: string, secrets?: Secrets): string {
  let result = url;
  const query = url.indexOf('?');
  // Most queries (`customerNumber=C-100234`) have nothing that could spell a credential's name: skip the split.
  if (query !== -1 && MAYBE_SECRET_NAME.test(url.slice(query + 1))) {
    const pairs = url.slice(query + 1).split('&');
    let changed = false;
    for (let index = 0; index < pairs.length; index += 1) {
      const pair = pairs[index]!;
      const equals = pair.indexOf('=');
      if (equals !== -1 && isSecretParameter(pair.slice(0, equals))) {
        pairs[index] = `${pair.slice(0, equals)}=[redacted]`;
        changed = true;
      }
    }
    if (changed) result = `${url.slice(0, query)}?${pairs.join('&')}`;
  }
  return secrets ? secrets.redact(result) : result;
}

/**
 * An onResponse hook writing {"level":30,"time":..,"pid":..,"hostname":..,"reqId":..,"method":..,
 * "url":..,"statusCode":..,"ms":..,"msg":"request"} to `sink`, exactly what `logger.info({...}, 'request')`
 * wrote, when the logger's level lets info lines through. Headers are never logged; credentials in
 * the URL are redacted.
 */
export function requestLogHook(logger: FastifyBaseLogger, sink: { write(line: string): void }, credentials: readonly string[] = []) {
  const secrets = new Secrets();
  for (const credential of credentials) secrets.add(credential);
  // Load repeats a few URLs: their logged (JSON-quoted, redacted) form is kept, up to 1024 short ones.
  const logged = new Map<string, string>();
  const loggedUrl = (url: string): string => {
    let text = logged.get(url);
    if (text === undefined) {
      text = JSON.stringify(redactedUrl(url, secrets));
      if (url.length <= 256) {
        if (logged.size >= 1024) logged.clear();
        logged.set(url, text);
      }
    }
    return text;
  };
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    // Read per request: pino lets the level change at run time.
    if ((logger as FastifyBaseLogger & { levelVal: number }).levelVal <= INFO) {
      sink.write(
        `{"level":${INFO},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},` +
          `"url":${loggedUrl(request.url)},"statusCode":${reply.statusCode},"ms":${Math.round(reply.elapsedTime * 10) / 10},"msg":"request"}\n`,
      );
    }
    done();
  };
}
