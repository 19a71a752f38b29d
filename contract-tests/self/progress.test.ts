// Progress on long work: the counts come from what the ledger's files gained (half-written lines included), a wait in
// progress is shown until it ends, a log gets a line at its interval and none for a run shorter than that, and a
// terminal gets one line that updates in place and is cleared at the end.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LedgerTail, progressLine, showProgress } from '../runner/progress.ts';

const dir = mkdtempSync(join(tmpdir(), 'lp-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (entry: Record<string, unknown>) => `${JSON.stringify(entry)}\n`;

/** A stream that records what is written and tells when it has `n` writes. */
function recordingStream(isTTY: boolean) {
  const writes: string[] = [];
  let waiting: { n: number; resolve: () => void } | undefined;
  const stream = {
    isTTY,
    columns: 60,
    write(text: string) {
      writes.push(text);
      if (waiting && writes.length >= waiting.n) waiting.resolve();
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  const writesReach = (n: number) => (writes.length >= n ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { n, resolve })));
  return { stream, writes, writesReach };
}

describe('the progress of a run', () => {
  it('counts the requests and checks the ledger gained, a half-written line once it is whole', () => {
    const ledger = join(dir, 'counts');
    const tail = new LedgerTail(ledger);
    expect(tail.read()).toEqual({ requests: 0, checks: 0 });
    mkdirSync(ledger, { recursive: true });
    const file = join(ledger, '1-a.jsonl');
    appendFileSync(file, line({ kind: 'exchange', operationId: 'listVehicles' }).repeat(3));
    const half = line({ kind: 'check', test: 'a', state: 'pass' });
    appendFileSync(file, half.slice(0, 10));
    expect(tail.read()).toEqual({ requests: 3, checks: 0 });
    appendFileSync(file, half.slice(10) + line({ kind: 'skip', test: 'b', reason: 'x', operationIds: [] }));
    appendFileSync(join(ledger, '2-b.jsonl'), line({ kind: 'exchange', operationId: 'getVehicle' }));
    expect(tail.read()).toEqual({ requests: 4, checks: 1 });
  });

  it('shows a wait in progress until it ends', () => {
    const ledger = join(dir, 'waits');
    mkdirSync(ledger, { recursive: true });
    appendFileSync(join(ledger, '1.jsonl'), line({ kind: 'wait', until: 10_000, why: 'the identity provider asked (X-Rate-Limit-Reset)' }));
    const tail = new LedgerTail(ledger);
    expect(tail.read(7_000).waiting).toEqual({ ms: 3_000, why: 'the identity provider asked (X-Rate-Limit-Reset)' });
    expect(progressLine(tail.read(7_000), 42_400)).toBe(
      'contract: suite: 0 requests, 0 checks done, 42 s; waiting 3.0 s: the identity provider asked (X-Rate-Limit-Reset)',
    );
    expect(tail.read(10_001).waiting).toBeUndefined();
  });

  it('in a log: a line at each interval, none for a run shorter than one', async () => {
    const short = recordingStream(false);
    showProgress({ ledgerDir: join(dir, 'none'), stream: short.stream, logEveryMs: 60_000 })();
    expect(short.writes).toEqual([]);
    const long = recordingStream(false);
    const stop = showProgress({ ledgerDir: join(dir, 'none'), stream: long.stream, logEveryMs: 20 });
    await long.writesReach(2);
    stop();
    expect(long.writes.slice(0, 2).every((w) => /^contract: suite: 0 requests, 0 checks done, \d+ s\n$/.test(w))).toBe(true);
  });

  it('on a terminal: one line updated in place, cut to the width, cleared at the end', async () => {
    const terminal = recordingStream(true);
    const stop = showProgress({ ledgerDir: join(dir, 'none'), stream: terminal.stream, updateEveryMs: 20 });
    await terminal.writesReach(1);
    stop();
    expect(terminal.writes[0]).toMatch(/^\rcontract: suite: 0 requests, 0 checks done, \d+ s/);
    expect(terminal.writes[0]!.length).toBeLessThanOrEqual(61);
    expect(terminal.writes.at(-1)).toMatch(/^\r +\r$/);
    expect(terminal.writes.join('')).not.toContain('\n');
  });
});
