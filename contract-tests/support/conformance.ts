// Checks one response against the bundled spec: no 5xx, a documented status, the documented content type,
// a body valid against the response schema (extra fields allowed) and the required headers.
import { formatAjvErrors, resolveRef, validatorAt, escapePointer, type HeaderObject, type Operation } from './spec.ts';

export interface ObservedResponse {
  status: number;
  headers: Headers;
  bodyText: string;
}

/** The documented response for a status: exact code first, then the range ("4XX"), then "default". */
export function documentedResponseKey(operation: Operation, status: number): string | undefined {
  const candidates = [String(status), `${String(status)[0]}XX`, 'default'];
  return candidates.find((key) => key in operation.responses);
}

const mediaTypeOf = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

function mediaTypeMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

export function checkResponse(operation: Operation, response: ObservedResponse): string[] {
  const problems: string[] = [];
  const where = `${operation.operationId} answered ${response.status}`;
  if (response.status >= 500) problems.push(`${where}: a 5xx status (the server failed on this request)`);
  const key = documentedResponseKey(operation, response.status);
  if (!key) {
    problems.push(`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
    return problems;
  }
  const documented = operation.responses[key]!;
  const pointer = `${operation.pointer}/responses/${escapePointer(key)}`;

  for (const [name, rawHeader] of Object.entries(documented.headers ?? {})) {
    const header = resolveRef<HeaderObject>(operation.api, rawHeader);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`${where}: required header ${name} is missing`);
      continue;
    }
    if (header.schema) {
      const schemaType = (resolveRef(operation.api, header.schema) as { type?: string }).type;
      const parsed = schemaType === 'integer' || schemaType === 'number' ? Number(value) : value;
      // A header may be a $ref to components/headers; its schema lives there.
      const headerRef = (rawHeader as { $ref?: string }).$ref;
      const headerPointer = headerRef ? headerRef.replace(/^#/, '') : `${pointer}/headers/${escapePointer(name)}`;
      const validate = validatorAt(operation.api, `${headerPointer}/schema`);
      if (!validate(parsed)) problems.push(`${where}: header ${name} "${value}" ${formatAjvErrors(validate)}`);
    }
  }

  const content = documented.content;
  if (!content || Object.keys(content).length === 0) return problems;
  const actualType = mediaTypeOf(response.headers.get('content-type'));
  if (response.bodyText.length === 0) {
    // An error status may come without a body (gateways do that); a success must carry what it documents.
    if (response.status < 400) problems.push(`${where}: empty body, documented ${Object.keys(content).join(' or ')}`);
    return problems;
  }
  const mediaKey = Object.keys(content).find((documentedType) => mediaTypeMatches(documentedType, actualType));
  if (!mediaKey) {
    problems.push(`${where}: content type "${actualType || '(none)'}" is not documented (${Object.keys(content).join(', ')})`);
    return problems;
  }
  if (!content[mediaKey]!.schema) return problems;
  let body: unknown = response.bodyText;
  if (/[/+]json$/.test(mediaKey)) {
    try {
      body = JSON.parse(response.bodyText);
    } catch {
      problems.push(`${where}: body is not valid JSON although the content type is ${actualType}`);
      return problems;
    }
  }
  const validate = validatorAt(operation.api, `${pointer}/content/${escapePointer(mediaKey)}/schema`);
  if (!validate(body)) problems.push(`${where}: body does not match the schema: ${formatAjvErrors(validate)}`);
  return problems;
}
