// A HAR 1.2 file built from Respect's JSON log, for every workflow: Respect's own HAR recorder sends each request on a
// connection of its own to the origin the step started at, so the authorize redirect to LP_REDIRECT_URI (another
// origin) would be sent to the identity provider instead, and no request would go through the proxy the environment
// names. The log holds every exchange Respect judged (request, answer, time); what a HAR has beyond that (timings,
// sizes, cookies) is left empty, as the format allows.
import type { RespectLog, RespectStep } from './respect.ts';

type HarPair = { name: string; value: string };

const pairs = (record: Record<string, string> = {}): HarPair[] => Object.entries(record).map(([name, value]) => ({ name, value }));

const bodyText = (body: unknown): string => (typeof body === 'string' ? body : JSON.stringify(body ?? ''));

function entryOf(step: RespectStep, startedDateTime: string): object {
  const request = step.request!;
  const response = step.response;
  const requestType = request.headers?.['content-type'];
  const url = new URL(request.url);
  return {
    startedDateTime,
    time: response?.time ?? 0,
    request: {
      method: request.method.toUpperCase(),
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(request.body === undefined ? {} : { postData: { mimeType: requestType ?? '', text: bodyText(request.body) } }),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: response?.statusCode ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response?.headers),
      content: { size: -1, mimeType: response?.headers?.['content-type'] ?? '', text: bodyText(response?.body) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: response?.time ?? 0, receive: 0 },
    comment: `step ${step.stepId}`,
  };
}

/** The log's exchanges as a HAR, in the order Respect made them; `note` says why this HAR is not Respect's own. */
export function harFromLog(log: RespectLog, note: string, startedAt: Date): object {
  const steps = Object.values(log.files).flatMap((file) => file.executedWorkflows.flatMap((workflow) => workflow.executedSteps));
  return {
    log: {
      version: '1.2',
      creator: { name: '@logistics-partner/api-kit contract:workflows', version: '1' },
      comment: note,
      // A step that never reached the target (no answer) has no URL in the log: there is no exchange to record.
      entries: steps.filter((step) => step.request?.url).map((step) => entryOf(step, startedAt.toISOString())),
    },
  };
}
