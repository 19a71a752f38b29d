// The sandbox's injectable clock: real time plus an adjustable offset, so token and code
// expiry can be tested without waiting (set with --clock-offset or POST /_sandbox/clock).
/** Offsets beyond a century are refused: far enough for any expiry test, near enough for Date. */
export const MAX_OFFSET_SECONDS = 100 * 365 * 24 * 3600;

export class SandboxClock {
  private offsetMs: number;

  constructor(offsetSeconds = 0) {
    this.offsetMs = 0;
    if (!this.setOffset(offsetSeconds)) throw new Error(`clock offset must be within +/- ${MAX_OFFSET_SECONDS} seconds`);
  }

  /** Milliseconds since the epoch, as the sandbox sees it. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }

  /** Returns false (and changes nothing) when the offset would leave +/- MAX_OFFSET_SECONDS. */
  setOffset(seconds: number): boolean {
    if (!(Math.abs(seconds) <= MAX_OFFSET_SECONDS)) return false;
    this.offsetMs = seconds * 1000;
    return true;
  }

  advance(seconds: number): boolean {
    return this.setOffset(this.offsetSeconds + seconds);
  }
}
