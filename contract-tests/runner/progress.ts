// Progress of a long run, read from the ledger the workers append to (<out>/.ledger/*.jsonl): the requests sent, the
// checks done, the time so far, and the longest wait in progress when the transport paces or waits out a limit. On a
// terminal it is one line that updates in place; in a log (CI) one line every 10 seconds, and none for a run shorter
// than that. Reading only what the files gained since the last look keeps it cheap.
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ProgressCounts {
  requests: number;
  checks: number;
  /** A wait still in progress when last looked at (ms left, and why), when one is. */
  waiting?: { ms: number; why: string };
}

/** Counts what the ledger's files gained since the last call: exchanges, ended checks, waits. */
export class LedgerTail {
  private readonly offsets = new Map<string, number>();
  private readonly partial = new Map<string, string>();
  private readonly counts: ProgressCounts = { requests: 0, checks: 0 };
  private waitUntil = 0;
  private waitWhy = '';

  constructor(private readonly dir: string) {}

  read(now = Date.now()): ProgressCounts {
    let files: string[] = [];
    try {
      files = readdirSync(this.dir).filter((f) => f.endsWith('.jsonl'));
    } catch {
      // No ledger yet: nothing sent.
    }
    for (const file of files) this.readFile(join(this.dir, file), now);
    const left = this.waitUntil - now;
    return { ...this.counts, ...(left > 500 ? { waiting: { ms: left, why: this.waitWhy } } : {}) };
  }

  private readFile(path: string, now: number): void {
    const from = this.offsets.get(path) ?? 0;
    const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
    if (size <= from) return;
    const buffer = Buffer.alloc(size - from);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, from);
    } finally {
      closeSync(fd);
    }
    this.offsets.set(path, size);
    const text = (this.partial.get(path) ?? '') + buffer.toString('utf8');
    const lines = text.split('\n');
    this.partial.set(path, lines.pop() ?? '');
    for (const line of lines) this.count(line, now);
  }

  private count(line: string, now: number): void {
    // The kind is the first member of every entry: no JSON parse for the many exchanges.
    if (line.startsWith('{"kind":"exchange"')) this.counts.requests++;
    else if (line.startsWith('{"kind":"check"')) this.counts.checks++;
    else if (line.startsWith('{"kind":"wait"')) {
      const wait = JSON.parse(line) as { until: number; why: string };
      if (wait.until > now && wait.until > this.waitUntil) {
        this.waitUntil = wait.until;
        this.waitWhy = wait.why;
      }
    }
  }
}

/** The progress line: requests, checks done, elapsed time, and the current wait. */
export function progressLine(counts: ProgressCounts, elapsedMs: number): string {
  const wait = counts.waiting ? `; waiting ${(counts.waiting.ms / 1000).toFixed(1)} s: ${counts.waiting.why}` : '';
  return `contract: suite: ${counts.requests} requests, ${counts.checks} checks done, ${Math.round(elapsedMs / 1000)} s${wait}`;
}

/** A log's line comes a little under every 10 s, so that each 10 s of a log has one whatever the timer's drift. */
export const LOG_EVERY_MS = 9_800;

export interface ProgressOptions {
  ledgerDir: string;
  /** Where the line goes (process.stderr: the verdicts stay on stdout). */
  stream: NodeJS.WriteStream;
  /** A log line every this many ms when the stream is not a terminal. */
  logEveryMs?: number;
  /** How often the terminal's line is updated, in ms. */
  updateEveryMs?: number;
}

/** Starts showing progress; the returned function stops it and clears the terminal's line. */
export function showProgress({ ledgerDir, stream, logEveryMs = LOG_EVERY_MS, updateEveryMs = 1000 }: ProgressOptions): () => void {
  const tail = new LedgerTail(ledgerDir);
  const started = Date.now();
  const terminal = Boolean(stream.isTTY);
  let width = 0;
  const tick = () => {
    const line = progressLine(tail.read(), Date.now() - started);
    if (!terminal) {
      stream.write(`${line}\n`);
      return;
    }
    const columns = stream.columns || 120;
    const shown = line.length > columns - 1 ? `${line.slice(0, columns - 2)}…` : line;
    stream.write(`\r${shown.padEnd(width)}`);
    width = shown.length;
  };
  const timer = setInterval(tick, terminal ? updateEveryMs : logEveryMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (terminal && width) stream.write(`\r${' '.repeat(width)}\r`);
  };
}
