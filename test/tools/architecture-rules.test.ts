// ARCHITECTURE.md's table of import rules says what dependency-cruiser enforces (`npm run lint:deps`): every rule of
// .dependency-cruiser.cjs has its row, with its severity, and the table names no rule the config lacks. A rule added,
// removed or made a warning without the table fails here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const config = createRequire(import.meta.url)(new URL('.dependency-cruiser.cjs', root).pathname) as {
  forbidden: Array<{ name: string; severity: string }>;
};

/** The rows of the "Import rules" table: rule name and severity. */
function documentedRules(markdown: string): Map<string, string> {
  const section = markdown.slice(markdown.indexOf('## Import rules'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Rule |')));
  const rows = new Map<string, string>();
  for (const line of table.split('\n')) {
    const match = /^\| `([a-z0-9-]+)` \| (error|warn|info) \|/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  return rows;
}

describe('ARCHITECTURE.md and the dependency-cruiser config', () => {
  const documented = documentedRules(readFileSync(new URL('ARCHITECTURE.md', root), 'utf8'));
  const enforced = new Map(config.forbidden.map((rule) => [rule.name, rule.severity]));

  it('the table has a row per rule, with the severity the config gives it', () => {
    expect(enforced.size).toBeGreaterThan(10);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(enforced));
  });

  it('the reading of the table fails on a rule left out or a severity changed', () => {
    const markdown = readFileSync(new URL('ARCHITECTURE.md', root), 'utf8');
    const without = documentedRules(markdown.replace(/^\| `nothing-imports-tests` \|.*\n/m, ''));
    expect(without.has('nothing-imports-tests')).toBe(false);
    const warned = documentedRules(markdown.replace('| `nothing-imports-scripts` | error |', '| `nothing-imports-scripts` | warn |'));
    expect(warned.get('nothing-imports-scripts')).toBe('warn');
    expect(Object.fromEntries(warned)).not.toEqual(Object.fromEntries(enforced));
  });
});
