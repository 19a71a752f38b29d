// Every point the seed marks "not shown" is decided in the specs and carries an x-assumption naming its seed section.
// The seed's sections and their open points are the project's own record, openapi/seed-gaps.yaml.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_NAMES, repoRoot } from '../../spec-core/apis.ts';
import { parse } from 'yaml';
import {
  allAssumptions,
  collectAssumptions,
  readAssumptionSources,
  SOURCES_DIR,
  sourceOf,
  type Assumption,
} from '../../spec-core/assumptions.ts';
import { escapePointer, nodeAt } from '../../spec-core/pointer.ts';
import { readSeedGaps, SEED_GAPS, SEED_SECTIONS_DIR, type SeedSection, seedSections } from '../../spec-core/seed-sections.ts';
import { bundles } from './bundles.ts';

/** What does not match: a section with open points that no x-assumption names, an x-assumption naming no section. */
function seedGapProblems(sections: Record<string, SeedSection>, assumptions: Assumption[]): string[] {
  const named = new Set(assumptions.map((a) => a.seed));
  return [
    ...Object.entries(sections)
      .filter(([number, section]) => section.open && !named.has(number))
      .map(([number]) => `seed ${number} leaves points open, but no x-assumption names it`),
    ...assumptions
      .filter((a) => !(a.seed in sections))
      .map((a) => `${a.api}#${a.pointer} names seed ${a.seed}, which ${SEED_GAPS} does not list`),
  ];
}

const seedGaps = seedSections();

describe('x-assumption', () => {
  const assumptions = allAssumptions();

  it('every x-assumption has what, why and a seed section that exists', () => {
    expect(assumptions.length).toBeGreaterThan(20);
    for (const a of assumptions) {
      expect(a.seed, a.pointer).toMatch(/^\d+(\.\d+)?$/);
      expect(a.what.length, a.pointer).toBeGreaterThan(20);
      expect(a.why.length, a.pointer).toBeGreaterThan(20);
    }
  });

  it('rejects an x-assumption without a seed section', () => {
    expect(() => collectAssumptions('fleet', { info: { 'x-assumption': { what: 'a thing', why: 'a reason' } } })).toThrow(
      /fleet#\/info has no "seed"/,
    );
  });

  it(`every seed section that leaves points open (${SEED_GAPS}) is named by an x-assumption, and each names a listed section`, () => {
    const open = Object.entries(seedGaps)
      .filter(([, section]) => section.open)
      .map(([number]) => number);
    // A set: an object keeps keys such as "3" ahead of "2.1".
    expect(new Set(open)).toEqual(new Set(['2.1', '2.2', '3', '4.2', '4.4', '4.5', '4.6', '4.7', '5.3', '5.4', '6', '7', '8', '9']));
    expect(seedGapProblems(seedGaps, assumptions)).toEqual([]);
  });

  it('finds an open section no x-assumption names, an x-assumption naming an unknown section, and a malformed record', () => {
    const one = assumptions.find((a) => a.seed === '8')!;
    expect(
      seedGapProblems(
        seedGaps,
        assumptions.filter((a) => a.seed !== '6'),
      ),
    ).toEqual(['seed 6 leaves points open, but no x-assumption names it']);
    expect(seedGapProblems(seedGaps, [...assumptions, { ...one, seed: '4.9' }])).toEqual([
      `${one.api}#${one.pointer} names seed 4.9, which ${SEED_GAPS} does not list`,
    ]);
    expect(() => readSeedGaps('sections:\n  "4.5": { title: List vehicles, open: [] }\n')).toThrow(
      /section 4\.5: "open" must be a non-empty list/,
    );
    expect(() => readSeedGaps('sections:\n  four: { title: Endpoints }\n')).toThrow(/"four" is not a section number/);
    expect(() => readSeedGaps('other: 1\n')).toThrow(/no "sections" map/);
  });

  it('reads the seed sections from the JSON kept under dist/, as from the YAML itself, one file for the record as it is', () => {
    const kept = readdirSync(SEED_SECTIONS_DIR).filter((name) => name.endsWith('.json'));
    expect(kept).toHaveLength(1);
    const asKept = JSON.parse(readFileSync(`${SEED_SECTIONS_DIR}/${kept[0]}`, 'utf8'));
    const fromYaml = readSeedGaps(readFileSync(`${repoRoot}/${SEED_GAPS}`, 'utf8'));
    expect(asKept).toEqual(fromYaml);
    expect(seedGaps).toEqual(fromYaml);
  });

  it('rejects a malformed "covers" and an empty "untestable"', () => {
    const base = { what: 'a thing assumed', why: 'a reason for it', seed: '7' };
    expect(() => collectAssumptions('fleet', { info: { 'x-assumption': { ...base, covers: ['type'] } } })).toThrow(
      /"covers" must be a list of JSON pointers/,
    );
    expect(() => collectAssumptions('fleet', { info: { 'x-assumption': { ...base, covers: '/type' } } })).toThrow(/"covers"/);
    expect(() => collectAssumptions('fleet', { info: { 'x-assumption': { ...base, untestable: ' ' } } })).toThrow(
      /"untestable" must say why/,
    );
    expect(collectAssumptions('fleet', { info: { 'x-assumption': { ...base, covers: ['', '/a', '#/paths/*/get'] } } })[0]!.covers).toEqual([
      '',
      '/a',
      '#/paths/*/get',
    ]);
  });

  // A pattern that names nothing would quietly turn what it was meant to cover into violations.
  it('every "covers" pattern names at least one place of its bundle', () => {
    const places = (node: unknown, at: string, out: string[]) => {
      out.push(at);
      if (node && typeof node === 'object')
        for (const [key, child] of Object.entries(node)) places(child, `${at}/${escapePointer(key)}`, out);
      return out;
    };
    const all = Object.fromEntries(API_NAMES.map((api) => [api, places(bundles[api], '', [])]));
    for (const a of assumptions) {
      for (const cover of a.covers) {
        const absolute = cover.startsWith('#') ? cover.slice(1) : `${a.pointer}${cover}`;
        const re = new RegExp(
          `^${absolute
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*')}(/|$)`,
        );
        expect(
          all[a.api]!.some((place) => re.test(place)),
          `${a.api}#${a.pointer} covers "${cover}"`,
        ).toBe(true);
      }
    }
  });

  it('a seed fact next to an assumption stays outside its "covers" (Vehicle: the types are assumed, the eight fields are not)', () => {
    const vehicle = assumptions.find((a) => a.api === 'fleet' && a.pointer === '/components/schemas/Vehicle' && a.covers.length)!;
    expect(vehicle.covers).toEqual(['/properties/*/type']);
  });

  // The decisions the specs had to make, each at the node it concerns.
  const decisions: Array<[string, (typeof API_NAMES)[number], string, string]> = [
    ['Vehicle field types', 'fleet', '/components/schemas/Vehicle', '2.1'],
    ['list is a bare array, no paging', 'fleet', '/components/schemas/VehicleList', '4.5'],
    ['several filter values as repeated parameters', 'fleet', '/paths/~1vehicles/get', '4.5'],
    ['customervehicleNumber spelling', 'fleet', '/paths/~1vehicles/get/parameters/3', '4.5'],
    ['sort syntax and directions', 'fleet', '/paths/~1vehicles/get/parameters/5', '4.5'],
    ['unknown or foreign vehicle', 'fleet', '/paths/~1vehicles~1{vehicleNumber}/get', '7'],
    ['no bearer token on the fleet API', 'fleet', '', '5.3'],
    ['required milestone fields', 'carriers', '/components/schemas/LoadMilestoneEvent', '4.4'],
    ['milestone_type values', 'carriers', '/components/schemas/LoadMilestoneEvent/properties/milestone_type', '2.2'],
    ['impossible calendar dates in event_time', 'carriers', '/components/schemas/LoadMilestoneEvent/properties/event_time', '7'],
    ['milestone confirmation body', 'carriers', '/components/schemas/LoadMilestoneEventConfirmation', '4.4'],
    ['subscription key on the milestone call', 'carriers', '/paths/~1v1~1load-milestone-events/post', '5.2'],
    ['scopes and authorization path', 'carriers', '/components/securitySchemes/OAuth2', '5.4'],
    ['identity provider token response', 'token', '/components/schemas/IdentityProviderTokenResponse', '5.4'],
    ['authorization endpoint behaviour', 'token', '/paths/~1oauth2~1default~1v1~1authorize/get', '4.3'],
    ['error body of token endpoints', 'token', '/components/schemas/OAuthError', '7'],
    ['error body of the other APIs', 'fleet', '/components/schemas/Error', '7'],
  ];

  it.each(decisions)('%s is marked where it is decided (%s#%s)', (_, api, at, section) => {
    const node = nodeAt(bundles[api], at);
    expect(node, `${api}#${at}`).toBeDefined();
    const entries = [node['x-assumption']].flat();
    expect(entries.map((e) => e?.seed)).toContain(section);
  });

  it('the committed table lists every assumption', () => {
    const table = readFileSync(`${repoRoot}/generated/assumptions.md`, 'utf8');
    for (const a of assumptions)
      expect(table).toContain(
        a.what
          .replace(/\s*\n\s*/g, ' ')
          .replace(/\|/g, '\\|')
          .slice(0, 60),
      );
  });

  it('names the source file of every assumption, from the table kept under dist/ as from the YAML itself', () => {
    const parsed = readAssumptionSources();
    for (const a of assumptions) {
      const source = sourceOf(a);
      expect(source, a.what.slice(0, 60)).toEqual(parsed.get(a.what));
      expect(source?.file).toMatch(/^openapi\/.+\.yaml$/);
      const node = nodeAt(parse(readFileSync(`${repoRoot}/${source!.file}`, 'utf8')), source!.pointer) as { what?: string };
      expect(node.what?.trim()).toBe(a.what);
    }
    expect(readdirSync(SOURCES_DIR).filter((name) => name.endsWith('.json'))).toHaveLength(1);
  });
});
