// `npm run lint:workflows`: every GitHub Actions workflow against the workflow schema (@action-validator/cli), plus the
// kit's least-privilege rules, which a schema cannot express: no write permission at the top of a workflow (a job asks
// for its own), no `write-all` on a job either (it names the scopes it writes), `id-token: write` only on a job that
// signs something with it (provenance, Pages), and any other write scope only on a job that writes with the token: a
// step that passes it explicitly (`github.token`, `secrets.GITHUB_TOKEN`) or an action that writes with it implicitly
// (actions/deploy-pages).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

type Json = Record<string, unknown>;
type Permissions = string | Record<string, string> | undefined;

const writes = (permissions: Permissions): string[] =>
  permissions === 'write-all'
    ? ['write-all']
    : typeof permissions === 'object' && permissions
      ? Object.keys(permissions).filter((scope) => permissions[scope] === 'write')
      : [];

/** The leaf errors of action-validator's JSON report, one line each. */
function leafErrors(node: unknown, into: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) leafErrors(item, into);
  else if (node && typeof node === 'object') {
    const { errors, states, path, title, detail } = node as Json;
    if (errors === undefined && states === undefined && typeof path === 'string') into.push(`${path}: ${detail ?? title}`);
    leafErrors(errors, into);
    leafErrors(states, into);
  }
  return into;
}

export function schemaProblems(file: string, validator: string): string[] {
  const result = spawnSync(validator, [file], { encoding: 'utf8', timeout: 30_000 });
  if (result.status === 0) return [];
  let report: unknown;
  try {
    // The report goes to stderr.
    report = JSON.parse(result.stderr || result.stdout);
  } catch {
    return [`action-validator failed (exit ${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim().split('\n')[0]}`];
  }
  return [...new Set(leafErrors(report))];
}

/** A step that writes with the job's token: one that is passed the token, or an action that uses it implicitly to write. */
const TOKEN_WRITER = /\$\{\{\s*(?:github\.token|secrets\.GITHUB_TOKEN)\s*\}\}|actions\/deploy-pages/;

export function permissionProblems(workflow: Json): string[] {
  const problems: string[] = [];
  const top = writes(workflow.permissions as Permissions);
  if (top.length > 0) problems.push(`top-level permissions grant ${top.join(', ')}: write permissions belong on the job that needs them`);
  if (workflow.permissions === undefined)
    problems.push('no top-level permissions: set `permissions: {}` (or read-only) so a job gets only what it declares');
  for (const [name, job] of Object.entries((workflow.jobs ?? {}) as Record<string, Json>)) {
    const granted = writes(job.permissions as Permissions);
    const steps = JSON.stringify(job.steps ?? []);
    if (granted.includes('write-all')) {
      problems.push(`job "${name}" has permissions: write-all: name the scopes it writes`);
      continue;
    }
    if (granted.includes('id-token') && !/--provenance|actions\/deploy-pages/.test(steps))
      problems.push(`job "${name}" has id-token: write but neither publishes with --provenance nor deploys Pages`);
    const other = granted.filter((scope) => scope !== 'id-token');
    if (other.length > 0 && !TOKEN_WRITER.test(steps))
      problems.push(
        `job "${name}" has ${other.map((scope) => `${scope}: write`).join(', ')} but no step writes with the token (github.token or secrets.GITHUB_TOKEN passed to a step, or actions/deploy-pages): grant write on the job that uses it`,
      );
  }
  return problems;
}

export function lintWorkflow(file: string, validator: string): string[] {
  return [...schemaProblems(file, validator), ...permissionProblems(parse(readFileSync(file, 'utf8')) as Json)];
}
