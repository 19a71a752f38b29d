// Log sink for the sandbox: batches log lines and writes them to stderr at most every few
// milliseconds (or once 64 KiB are pending), so request logging stays cheap under load:
// stderr writes are synchronous syscalls, and one per event-loop turn was one per request or two.
import { writeSync } from 'node:fs';

/** How long a line may wait before it is written. */
const FLUSH_DELAY_MS = 10;
/** Write at once beyond this much pending text, so a burst never holds much memory. */
const FLUSH_CHARS = 64 * 1024;

export class BatchedStderr {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= FLUSH_CHARS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes everything still pending; called on shutdown too, so no line is lost. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const text = Buffer.from(this.pending);
    this.pending = '';
    try {
      // A pipe may take part of a large batch; each pass writes at least one byte or throws.
      for (let written = 0; written < text.length; ) written += writeSync(2, text, written);
    } catch {
      // stderr closed (e.g. the parent went away) or full and non-blocking: logs are best effort.
    }
  }
}
