// The sandbox's one structured log line per request, in pino's JSON format, built as one string
// instead of through pino's object walk: logging was the largest share of a request's own cost.
import { hostname } from 'node:os';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** Query parameters whose values are credentials and never logged. */
const SECRET_QUERY = /([?&](?:code|client_secret|code_verifier|access_token)=)[^&]*/g;

/** pino's numeric value of the info level. */
const INFO = 30;

export function redactedUrl(url: string): string {
  // Most URLs name none of these parameters; skip the regular expression for them.
  return url.includes('code') || url.includes('secret') || url.includes('token') ? url.replace(SECRET_QUERY, '$1[redacted]') : url;
}

/**
 * An onResponse hook writing {"level":30,"time":..,"pid":..,"hostname":..,"reqId":..,"method":..,
 * "url":..,"statusCode":..,"ms":..,"msg":"request"} to `sink`, exactly what `logger.info({...}, 'request')`
 * wrote, when the logger's level lets info lines through. Headers are never logged; credentials in
 * the query are redacted.
 */
export function requestLogHook(logger: FastifyBaseLogger, sink: { write(line: string): void }) {
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    // Read per request: pino lets the level change at run time.
    if ((logger as FastifyBaseLogger & { levelVal: number }).levelVal <= INFO) {
      sink.write(
        `{"level":${INFO},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},` +
          `"url":${JSON.stringify(redactedUrl(request.url))},"statusCode":${reply.statusCode},"ms":${Math.round(reply.elapsedTime * 10) / 10},"msg":"request"}\n`,
      );
    }
    done();
  };
}
