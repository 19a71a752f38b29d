// The curl of one workflow step, as the docs show it and a failed step's report gives it: every setting and credential
// from its LP_* environment variable, every value an earlier step returned from a shell variable of its name
// (ACCESS_TOKEN, VEHICLE_NUMBER), so it can be pasted as it is after the steps before it.
import type { Field, Part, StepRequest } from './step-request.ts';

const isVariable = (part: Part): part is { variable: string } => 'variable' in part;

/** Single quotes for literal text, double quotes (variables expanded) when a variable is in it. */
function quoted(parts: Part[]): string {
  if (!parts.some(isVariable)) return `'${parts.map((p) => (p as { text: string }).text.replace(/'/g, `'\\''`)).join('')}'`;
  return `"${parts.map((p) => (isVariable(p) ? `$${p.variable}` : p.text.replace(/(["\\$`])/g, '\\$1'))).join('')}"`;
}

const named = ({ name, value }: Field, separator: string): Part[] => [{ text: `${name}${separator}` }, ...value];

/** A JSON body as the text of an unquoted heredoc: variables expand, literal `$`, `` ` `` and `\` are escaped. */
function jsonHeredoc(fields: Field[]): string {
  const text = (parts: Part[]) =>
    parts
      .map((p) =>
        isVariable(p)
          ? `$${p.variable}`
          : JSON.stringify(p.text)
              .slice(1, -1)
              .replace(/([$`])/g, '\\$1'),
      )
      .join('');
  return `{${fields.map((field) => `"${field.name}": "${text(field.value)}"`).join(', ')}}`;
}

/** The curl command of a step, one option per line. */
export function curlOf(request: StepRequest): string {
  const url = quoted([{ variable: request.server }, ...request.path]);
  const first = [
    'curl -sS',
    request.method === 'GET' ? (request.query.length > 0 ? '-G' : '') : `-X ${request.method}`,
    request.redirects ? `-o /dev/null -w '%{http_code} %{redirect_url}\\n'` : '',
    url,
  ]
    .filter(Boolean)
    .join(' ');
  const options = [
    ...request.headers.map((header) => `-H ${quoted(named(header, ': '))}`),
    ...(request.body ? [`-H 'Content-Type: ${request.body.contentType}'`] : []),
    ...request.query.map((field) => `--data-urlencode ${quoted(named(field, '='))}`),
    ...(request.body?.kind === 'form' ? request.body.fields.map((field) => `--data-urlencode ${quoted(named(field, '='))}`) : []),
    ...(request.body?.kind === 'json' ? ['--data-binary @- <<EOF'] : []),
  ];
  const command = [first, ...options.map((option) => `  ${option}`)].join(' \\\n');
  return request.body?.kind === 'json' ? `${command}\n${jsonHeredoc(request.body.fields)}\nEOF` : command;
}
