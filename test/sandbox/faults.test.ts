// The table of faults (sandbox/faults/) against the catalogue (sandbox/mutations.ts): one fault per mutation, each
// at a place the honest sandbox has, and no mutation named anywhere else in the sandbox.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCredentials } from '../../sandbox/config.ts';
import type { Place, Route } from '../../sandbox/faults/fault.ts';
import { FAULT_GROUPS, FAULTS } from '../../sandbox/faults/index.ts';
import { MUTATIONS, type MutationId } from '../../sandbox/mutations.ts';
import { buildSandbox, type Sandbox } from '../../sandbox/server.ts';
import { repoRoot } from './sandbox-process.ts';

const places = Object.values(FAULTS).map((fault) => fault.where);
const routeOf = (place: Place): Route | undefined => ('request' in place ? place.request : 'answer' in place ? place.answer : undefined);

/** Builds a sandbox (not listening); `beforeRoutes` runs after the fault is installed and before the routes register. */
async function built(mutation: MutationId | undefined, beforeRoutes: (sandbox: Sandbox) => void = () => {}): Promise<Sandbox> {
  const sandbox = buildSandbox({ credentials: readCredentials({}), logLevel: 'silent', mutation });
  beforeRoutes(sandbox);
  await sandbox.app.ready();
  return sandbox;
}

describe('the table of faults', () => {
  it('has exactly one fault for every mutation of the catalogue, and none for anything else', () => {
    const ids = FAULT_GROUPS.flatMap((group) => Object.keys(group));
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect([...ids].sort()).toEqual(MUTATIONS.map((m) => m.id).sort());
    expect(Object.keys(FAULTS).sort()).toEqual(MUTATIONS.map((m) => m.id).sort());
  });

  it('names only routes the honest sandbox has', async () => {
    const { app } = await built(undefined);
    try {
      const routes = new Set(places.map(routeOf).filter((route) => route !== undefined));
      expect(routes.size).toBeGreaterThan(5);
      for (const route of routes) {
        const [method, url] = route.split(' ') as [string, string];
        if (url.endsWith('/*')) expect(app.hasRoute({ method: 'GET', url: `${url.slice(0, -1)}vehicles` }), route).toBe(true);
        else expect(app.hasRoute({ method, url }), route).toBe(true);
      }
    } finally {
      await app.close();
    }
  });

  it('names only seams the honest routes ask for, and store methods that exist', async () => {
    const asked = new Set<string | symbol>();
    const { app, context } = await built(undefined, (sandbox) => {
      sandbox.context.seams = new Proxy({}, { get: (_target, name) => void asked.add(name) });
    });
    try {
      const seams = places.flatMap((place) => ('seam' in place ? [place.seam] : []));
      expect(seams.length).toBeGreaterThan(5);
      for (const seam of seams) expect([...asked], seam).toContain(seam);
      for (const place of places)
        if ('store' in place) expect(typeof (context[place.store] as unknown as Record<string, unknown>)[place.method]).toBe('function');
    } finally {
      await app.close();
    }
  });

  it('adds its new routes in the scope of their prefix', async () => {
    for (const [id, fault] of Object.entries(FAULTS) as [MutationId, (typeof FAULTS)[MutationId]][]) {
      if (!('newRoute' in fault.where)) continue;
      const { app } = await built(id);
      try {
        const [methods, url] = fault.where.newRoute.split(' ') as [string, string];
        for (const method of methods.split(',')) expect(app.hasRoute({ method, url }), `${id}: ${method} ${url}`).toBe(true);
      } finally {
        await app.close();
      }
    }
  });

  it('is the only place in the sandbox that names a mutation', () => {
    const sandboxDir = join(repoRoot, 'sandbox');
    const files = readdirSync(sandboxDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith('faults') && file !== 'mutations.ts')
      .map((file) => join(sandboxDir, file));
    expect(files.length).toBeGreaterThan(20);
    const named = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [
        ...MUTATIONS.filter((m) => text.includes(`'${m.id}'`)).map((m) => `${relative(repoRoot, file)} names ${m.id}`),
        ...(text.includes('mutated(') ? [`${relative(repoRoot, file)} calls mutated(`] : []),
      ];
    });
    expect(named).toEqual([]);
  });
});
