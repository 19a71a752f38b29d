// --data durability: an event is acknowledged only once stored, a crash (kill -9) in the middle
// of writing loses no acknowledged event and stores none twice, a torn last line is set aside,
// a failed write records nothing, and one data file serves one sandbox at a time.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aMilestone, recordMilestone, serviceToken } from './api-calls.ts';
import { startInProcess, startSandboxProcess } from './sandbox-process.ts';
import { testWaitMs } from '../../config/test-waits.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-sandbox-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Listed = { load_id: string; seq: number };

/** Every recorded event, following the Link: rel="next" pages. */
async function allEvents(origin: string): Promise<Listed[]> {
  const events: Listed[] = [];
  let next: string | undefined = '/_sandbox/load-milestone-events?limit=1000';
  while (next) {
    const response: Response = await fetch(`${origin}${next}`);
    expect(response.status).toBe(200);
    events.push(...((await response.json()) as Listed[]));
    next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  return events;
}

const originOf = (env: Record<string, string>) => env.LP_BASE_URL!.replace(/\/svc$/, '');
const line = (loadId: string) =>
  `${JSON.stringify({ ...aMilestone, load_id: loadId, received_at: '2026-11-22T14:30:01.000Z', client_id: 'sandbox-client' })}\n`;

describe('--data durability', () => {
  it('after kill -9 in the middle of writing, a restart has every acknowledged event exactly once', async () => {
    const dataFile = join(dir, 'killed.jsonl');
    const first = await startSandboxProcess(['--data', dataFile, '--log-level', 'warn']);
    const origin = originOf(first.env);
    const token = await serviceToken(origin);
    const acknowledged: string[] = [];
    let sent = 0;
    let running = true;
    // Sixteen writers in parallel until the kill; each load id is sent once.
    const writers = Array.from({ length: 16 }, async () => {
      while (running) {
        sent += 1;
        const loadId = `LD-KILL-${sent}`;
        try {
          const response = await recordMilestone(origin, token, { ...aMilestone, load_id: loadId });
          if (response.status === 200) acknowledged.push(loadId);
        } catch {
          // the connection died with the process: not acknowledged
        }
      }
    });
    await expect.poll(() => acknowledged.length, { timeout: testWaitMs(30_000) }).toBeGreaterThanOrEqual(300);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    running = false;
    await Promise.all(writers);
    expect(existsSync(`${dataFile}.lock`)).toBe(true); // left behind by the kill: stale, must not block the restart

    const second = await startSandboxProcess(['--data', dataFile, '--log-level', 'warn']);
    try {
      const stored = await allEvents(originOf(second.env));
      const counts = new Map<string, number>();
      for (const event of stored) counts.set(event.load_id, (counts.get(event.load_id) ?? 0) + 1);
      expect(acknowledged.filter((loadId) => counts.get(loadId) !== 1)).toEqual([]);
      expect([...counts.values()].every((count) => count === 1)).toBe(true);
      expect(stored.map((event) => event.seq)).toEqual(stored.map((_, index) => index + 1));
    } finally {
      await second.stop();
    }
  });

  it('sets a torn last line aside with a warning and starts with the whole events', async () => {
    const dataFile = join(dir, 'torn.jsonl');
    writeFileSync(dataFile, `${line('LD-WHOLE-1')}${line('LD-WHOLE-2')}{"load_id":"LD-TOR`);
    const sandbox = await startInProcess({ dataFile });
    try {
      expect((await allEvents(sandbox.origin)).map((event) => event.load_id)).toEqual(['LD-WHOLE-1', 'LD-WHOLE-2']);
      expect(sandbox.context.events.warnings.join('\n')).toMatch(/last line was torn \(18 bytes/);
      const aside = readdirSync(dir).filter((name) => name.startsWith('torn.jsonl.torn-'));
      expect(aside.map((name) => readFileSync(join(dir, name), 'utf8'))).toEqual(['{"load_id":"LD-TOR']);
      // New events follow a whole line, so the file loads cleanly next time.
      expect(
        (await recordMilestone(sandbox.origin, await serviceToken(sandbox.origin), { ...aMilestone, load_id: 'LD-AFTER-TORN' })).status,
      ).toBe(200);
    } finally {
      await sandbox.close();
    }
    const lines = readFileSync(dataFile, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((text) => JSON.parse(text).load_id)).toEqual(['LD-WHOLE-1', 'LD-WHOLE-2', 'LD-AFTER-TORN']);
  });

  it('still refuses a damaged line that is not the last, naming it', async () => {
    const dataFile = join(dir, 'damaged.jsonl');
    writeFileSync(dataFile, `${line('LD-1')}not json\n${line('LD-2')}`);
    await expect(startInProcess({ dataFile })).rejects.toThrow(/line 2 is not JSON/);
  });

  it('reads a data file larger than its read buffer, lines spanning the chunk boundaries', async () => {
    const dataFile = join(dir, 'large.jsonl');
    const count = 12_000; // about 1.6 MB: more than one 1 MiB chunk
    writeFileSync(dataFile, Array.from({ length: count }, (_, index) => line(`LD-LARGE-${index}`)).join(''));
    const sandbox = await startInProcess({ dataFile });
    try {
      const stored = await allEvents(sandbox.origin);
      expect(stored).toHaveLength(count);
      expect(stored.at(-1)).toMatchObject({ load_id: `LD-LARGE-${count - 1}`, seq: count });
    } finally {
      await sandbox.close();
    }
  });

  it('answers a failed write with a 5xx and records nothing, so a retry is stored once', async () => {
    const dataFile = join(dir, 'full.jsonl');
    symlinkSync('/dev/full', dataFile); // every write fails with ENOSPC
    const sandbox = await startInProcess({ dataFile });
    try {
      const token = await serviceToken(sandbox.origin);
      const response = await recordMilestone(sandbox.origin, token, { ...aMilestone, load_id: 'LD-DISK-FULL' });
      expect(response.status).toBe(500);
      expect(((await response.json()) as { message: string }).message).toMatch(/not recorded/);
      expect(await allEvents(sandbox.origin)).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses a second sandbox on the same data file with a clear message', async () => {
    const dataFile = join(dir, 'shared.jsonl');
    const first = await startSandboxProcess(['--data', dataFile]);
    try {
      await expect(startSandboxProcess(['--data', dataFile])).rejects.toThrow(
        new RegExp(`--data ${dataFile} is in use by another sandbox \\(pid ${first.child.pid}\\)`),
      );
      await expect(startInProcess({ dataFile })).rejects.toThrow(/is in use by another sandbox/);
    } finally {
      await first.stop();
    }
    // A clean stop releases the lock.
    expect(existsSync(`${dataFile}.lock`)).toBe(false);
    const again = await startInProcess({ dataFile });
    await again.close();
  });
});
