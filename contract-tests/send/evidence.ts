// What a partner needs to act on a violation: the request (method, URL, headers, body) with every credential masked,
// the answer (status, content type, a body excerpt), and a copy-paste `curl` that takes each credential and base URL
// from its LP_* variable (`-H "API-Key: $LP_FLEET_API_KEY"`), never its value. Built from the exchange itself, and
// redacted once more on the way out.
import { type LpVariable, SECRET_VARIABLES, type Target } from './target.ts';

export interface Evidence {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  answer: { status: number; contentType: string; body: string };
  curl: string;
}

/** Headers a reproduction needs; the rest (user agents, lengths) only add noise. */
const KEPT_HEADERS = new Set(['authorization', 'api-key', 'ocp-apim-subscription-key', 'content-type', 'accept']);
const BODY_EXCERPT = 300;
const BASE_VARIABLES: LpVariable[] = ['LP_BASE_URL', 'LP_AUTH_URL', 'LP_FLEET_BASE_URL'];
/** Non-secret settings that a request may carry and a reproduction may take from the environment. */
const NAMED_VARIABLES: LpVariable[] = [...SECRET_VARIABLES, 'LP_CLIENT_ID', 'LP_REDIRECT_URI', 'LP_TEST_LOAD_ID'];

/** A piece of a shell word in double quotes: either literal text (escaped) or a variable reference. */
type Piece = { text: string } | { variable: string };
const quote = (pieces: Piece[]) =>
  `"${pieces.map((p) => ('variable' in p ? `\${${p.variable}}` : p.text.replace(/(["\\$`])/g, '\\$1'))).join('')}"`;

/** Splits text at each configured value, turning it into a reference to its LP_* variable (longest values first). */
function withVariables(target: Target, text: string, variables: LpVariable[], extra: Array<[string, string]> = []): Piece[] {
  const known: Array<[string, string]> = [
    ...variables.flatMap((name): Array<[string, string]> => (target.env[name] ? [[target.env[name]!, name]] : [])),
    ...extra,
  ].sort((a, b) => b[0].length - a[0].length);
  let pieces: Piece[] = [{ text }];
  for (const [value, name] of known) {
    if (!value) continue;
    pieces = pieces.flatMap((piece) =>
      'variable' in piece
        ? [piece]
        : piece.text
            .split(value)
            .flatMap((part, index): Piece[] => (index === 0 ? [{ text: part }] : [{ variable: name }, { text: part }])),
    );
  }
  return pieces.filter((p) => 'variable' in p || p.text !== '');
}

const render = (pieces: Piece[]) => pieces.map((p) => ('variable' in p ? `$${p.variable}` : p.text)).join('');

/**
 * The evidence of one exchange. `tokens` are bearer tokens the run obtained: in a reproduction they become
 * `$LP_ACCESS_TOKEN` (a token from the token endpoint), in the shown request `***`.
 */
export function evidenceOf(
  target: Target,
  request: { method: string; url: string; headers: Headers; body: string },
  answer: { status: number; contentType: string; body: string },
  tokens: Iterable<string>,
  redact: (text: string) => string,
): Evidence {
  const tokenRefs: Array<[string, string]> = [...tokens].filter((t) => t.length >= 8).map((t) => [t, 'LP_ACCESS_TOKEN']);
  const url = withVariables(target, request.url, [...BASE_VARIABLES, ...NAMED_VARIABLES], tokenRefs);
  const headers: Array<[string, Piece[]]> = [];
  for (const [name, value] of request.headers)
    if (KEPT_HEADERS.has(name)) headers.push([name, withVariables(target, value, NAMED_VARIABLES, tokenRefs)]);
  const body = request.body ? withVariables(target, request.body, NAMED_VARIABLES, tokenRefs) : undefined;
  const curl = [
    `curl -sS -i -X ${request.method} ${quote(url)}`,
    ...headers.map(([name, value]) => `-H ${quote([{ text: `${name}: ` }, ...value])}`),
    ...(body ? [`--data-raw ${quote(body)}`] : []),
  ].join(' \\\n  ');
  // The shown request names the variables too: a credential is never shown, only where it comes from.
  return {
    request: {
      method: request.method,
      url: redact(render(url)),
      headers: Object.fromEntries(headers.map(([name, value]) => [name, redact(render(value))])),
      ...(body ? { body: redact(render(body)).slice(0, BODY_EXCERPT) } : {}),
    },
    answer: {
      status: answer.status,
      contentType: answer.contentType,
      body: redact(answer.body).replace(/\s+/g, ' ').slice(0, BODY_EXCERPT),
    },
    curl: redact(curl),
  };
}
