// Recorded load milestone events: kept in memory (the newest maxEvents of them), and appended
// as JSON lines to --data FILE when given (loaded again on the next start).
//
// Durability: an event is acknowledged only after its line is written and fdatasync'ed. Appends
// that arrive while a write is in flight are written together in the next write (one fdatasync
// per batch), so a burst costs a few syncs, not one per event. A failed write cuts the file back
// to its last whole line and records nothing in memory, so the caller's retry stores it once.
import { closeSync, existsSync, fdatasync, fstatSync, ftruncateSync, openSync, write } from 'node:fs';
import { promisify } from 'node:util';
import { lockDataFile, type DataFileLock } from './data-file-lock.ts';
import { Fifo } from './fifo.ts';
import { readJsonlFile } from './jsonl-file.ts';

export type RecordedEvent = {
  load_id: string;
  milestone_type: string;
  event_time: string;
  received_at: string;
  client_id: string;
};

/** An event with its position in the store (1 for the first ever recorded): the paging cursor. */
export type StoredEvent = RecordedEvent & { seq: number };

export const DEFAULT_MAX_EVENTS = 500_000;
/** Far above any event the size limits of the spec let in; a longer line is not one of ours. */
const MAX_LINE_BYTES = 1024 * 1024;

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);

type PendingAppend = { event: RecordedEvent; line: string; resolve: () => void; reject: (error: Error) => void };

export class EventStore {
  /** The newest maxEvents events, oldest first. */
  private readonly events = new Fifo<StoredEvent>();
  private nextSeq = 1;
  private fd: number | undefined;
  private lock: DataFileLock | undefined;
  private queue: PendingAppend[] = [];
  private writing: Promise<void> | undefined;
  /** Messages about the data file for the log (a torn last line set aside). */
  readonly warnings: string[] = [];

  constructor(
    private readonly dataFile?: string,
    private readonly maxEvents = DEFAULT_MAX_EVENTS,
  ) {
    if (!dataFile) return;
    this.lock = lockDataFile(dataFile);
    try {
      if (existsSync(dataFile)) this.load(dataFile);
      this.fd = openSync(dataFile, 'a', 0o600);
    } catch (error) {
      this.lock.release();
      throw error;
    }
  }

  private load(dataFile: string): void {
    let result: ReturnType<typeof readJsonlFile>;
    try {
      result = readJsonlFile(dataFile, MAX_LINE_BYTES, (line, lineNumber) => {
        let event: unknown;
        try {
          event = JSON.parse(line);
        } catch {
          throw new Error(`line ${lineNumber} is not JSON (only a torn last line is set aside; this one is followed by others)`);
        }
        if (!isRecordedEvent(event)) throw new Error(`line ${lineNumber} is not a recorded milestone event`);
        this.keep(event);
      });
    } catch (error) {
      throw new Error(`--data ${dataFile}: ${(error as Error).message}`);
    }
    if (result.tornTail) {
      this.warnings.push(
        `--data ${dataFile}: the last line was torn (${result.tornTail.bytes} bytes without a newline, left by a crash during a write; ` +
          `it was never acknowledged). Moved it to ${result.tornTail.savedTo}; starting with the ${this.nextSeq - 1} whole events.`,
      );
    }
  }

  private keep(event: RecordedEvent): void {
    this.events.push({ ...event, seq: this.nextSeq++ });
    if (this.events.length > this.maxEvents) this.events.shift();
  }

  /** Resolves once the event is stored (written and synced with --data); rejects, recording nothing, when the write fails. */
  record(event: RecordedEvent): Promise<void> {
    if (this.fd === undefined) {
      if (this.dataFile) return Promise.reject(new Error('the event store is closed'));
      this.keep(event);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ event, line: `${JSON.stringify(event)}\n`, resolve, reject });
      this.writing ??= this.writeQueued().finally(() => (this.writing = undefined));
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0 && this.fd !== undefined) {
      const batch = this.queue;
      this.queue = [];
      const fd = this.fd;
      const bytes = Buffer.from(batch.map((pending) => pending.line).join(''));
      let written = 0;
      try {
        while (written < bytes.length) written += (await writeAsync(fd, bytes, written, bytes.length - written, null)).bytesWritten;
        await fdatasyncAsync(fd);
      } catch (error) {
        // Cut a partly written batch off again, so the file still ends with a whole line.
        if (written > 0) truncateBy(fd, written);
        for (const pending of batch) pending.reject(error as Error);
        continue;
      }
      for (const pending of batch) {
        this.keep(pending.event);
        pending.resolve();
      }
    }
  }

  /** Up to `limit` events with seq > after (optionally of one load), oldest first; `more` says whether others follow. */
  page(options: { after: number; limit: number; loadId?: string }): { events: StoredEvent[]; more: boolean } {
    const { after, limit, loadId } = options;
    const firstSeq = this.events.peek()?.seq ?? this.nextSeq;
    const events: StoredEvent[] = [];
    // Seqs are consecutive, so the first event after `after` is found by arithmetic, not a search.
    for (let index = Math.max(0, after + 1 - firstSeq); index < this.events.length; index += 1) {
      const event = this.events.at(index)!;
      if (loadId !== undefined && event.load_id !== loadId) continue;
      if (events.length === limit) return { events, more: true };
      events.push(event);
    }
    return { events, more: false };
  }

  get size(): number {
    return this.events.length;
  }

  /** Waits for appends in flight, then closes the file and releases the lock. */
  async close(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.lock?.release();
  }
}

function truncateBy(fd: number, bytes: number): void {
  try {
    // O_APPEND writes go to the end, so the batch began at size - bytes.
    ftruncateSync(fd, Math.max(0, fstatSync(fd).size - bytes));
  } catch {
    // A device such as /dev/full cannot be truncated; nothing of the batch was stored there anyway.
  }
}

function isRecordedEvent(value: unknown): value is RecordedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return ['load_id', 'milestone_type', 'event_time', 'received_at', 'client_id'].every((field) => typeof event[field] === 'string');
}
