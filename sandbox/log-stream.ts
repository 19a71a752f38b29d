// Log sink for the sandbox: batches log lines and writes them to stderr once per event-loop
// turn, so request logging stays cheap under load (stderr writes are synchronous syscalls).
import { writeSync } from 'node:fs';

export class BatchedStderr {
  private pending: string[] = [];
  private scheduled = false;

  write(line: string): void {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes everything still pending; called on shutdown too, so no line is lost. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    try {
      writeSync(2, text);
    } catch {
      // stderr closed (e.g. the parent went away): logs are best effort.
    }
  }
}
