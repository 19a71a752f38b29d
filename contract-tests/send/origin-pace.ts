// Each origin's pace, so that a limited one (an identity provider that allows 20 requests a second) rarely answers 429
// and the others never wait for it. What an origin's answers say of its limit (send/rate-limit-headers.ts) sets its
// pace: a quota and its window give the rate it sustains; the requests left before the reset are a budget, spent by
// every request sent after the answer that told it, and spread until the reset when it is far; a spent budget waits for
// the reset. A 429 pauses the origin alone, for its Retry-After or its reset, and without a configured rate the rate
// accepted before it becomes the origin's rate, which creeps up again. A configured cap (--idp-rate-limit) holds whatever
// the headers say. The numbers live on a board every thread of the process shares (send/pace-board.ts), so a run's
// workers pace an origin together.
import type { Field, PaceBoard, Slot } from './pace-board.ts';
import type { RateLimitNote } from './rate-limit-headers.ts';

/** A rate the headers say, or a cap, is paced a little below: timers fire late and the network bunches requests. */
const MARGIN = 0.95;
/** A budget is spread until its reset only when the reset is this far; a nearer one is the rate's business. */
const SPREAD_MS = 2_000;
/** Each accepted answer raises a rate learned from 429s by this much (at 20 a second, a fifth faster after a second). */
const CREEP = 1.01;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Milliseconds since the epoch with a fraction: the same clock in every thread (each thread's timeOrigin differs). */
export const paceClock = () => performance.timeOrigin + performance.now();

export interface OriginPaceOptions {
  /** Requests a second at most, by origin key (the identity provider's cap). */
  caps?: ReadonlyMap<string, number>;
  /** Whether a 429 teaches a rate (not when the partner configured one: --rate-limit). */
  learnsFrom429?: boolean;
  clock?: () => number;
}

/** A request's place in its origin's count: its answer's news about the quota is newer than any earlier request's. */
export interface Taken {
  number: number;
  waitedMs: number;
}

/** A slot of the origin's rate taken for a request, in the schedule of one epoch (a pause starts another). */
export type Reserved = { at: number; epoch: number };
/** Go now, as the origin's `number`th request; or wait until `until` (holding `reserved`, if a slot was taken). */
export type Decision = { go: true; number: number } | { go: false; until: number; reserved?: Reserved };

export class OriginPace {
  private readonly caps: ReadonlyMap<string, number>;
  private readonly learnsFrom429: boolean;
  private readonly clock: () => number;

  constructor(
    private readonly board: () => PaceBoard,
    options: OriginPaceOptions = {},
  ) {
    this.caps = options.caps ?? new Map();
    this.learnsFrom429 = options.learnsFrom429 ?? true;
    this.clock = options.clock ?? paceClock;
  }

  /** Waits until the origin takes one more request: a pause's end, a spent budget's reset, the rate's next slot. */
  async acquire(key: string): Promise<Taken> {
    let waitedMs = 0;
    let reserved: Reserved | undefined;
    for (;;) {
      const decision = this.take(key, reserved);
      if (decision.go) return { number: decision.number, waitedMs };
      reserved = decision.reserved;
      waitedMs += await this.sleepUntil(decision.until);
    }
  }

  /**
   * Whether a request may go to the origin now (counted when it may), or until when it waits; a wait keeps the slot of
   * the rate it took (`reserved`, handed back on the next call). The transport asks holding a slot of its gate, so a
   * request goes the moment the origin takes it, and gives the slot back while it waits.
   */
  take(key: string, reserved?: Reserved): Decision {
    return this.board().update(key, (slot) => this.decide(key, slot, reserved));
  }

  /** Sleeps until `until` on the pace's clock; resolves to the ms slept. */
  async sleepUntil(until: number): Promise<number> {
    const ms = until - this.clock();
    if (ms <= 0) return 0;
    await sleep(ms);
    return ms;
  }

  private decide(key: string, slot: Slot, held: Reserved | undefined): Decision {
    const now = this.clock();
    const epoch = slot.get('epoch');
    // A pause restarted the schedule: a slot taken before it is taken again after it, so the waiting requests do not
    // all go at its end.
    let reserved = held?.epoch === epoch ? held : undefined;
    const pause = slot.get('pause');
    if (now < pause) return { go: false, until: pause };
    const reset = slot.get('reset');
    if (budgetLeft(slot, now) === 0) {
      restart(slot, reset);
      return { go: false, until: reset };
    }
    const rate = this.rateOf(key, slot, now);
    if (!reserved) {
      const at = Math.max(slot.get('next'), now);
      if (rate !== undefined) slot.set('next', at + 1000 / rate);
      reserved = { at, epoch };
    }
    // A timer may fire a fraction of a millisecond early: the next call sleeps the rest.
    if (reserved.at > now) return { go: false, until: reserved.at, reserved };
    // Requests whose slots passed while they waited for the gate go one slot apart, not in a burst.
    const spaced = rate === undefined ? now : slot.get('last') + 1000 / rate;
    if (spaced > now) return { go: false, until: spaced, reserved };
    const number = slot.get('sent') + 1;
    slot.set('sent', number);
    slot.set('last', now);
    return { go: true, number };
  }

  /** The rate the origin is paced at now, in requests a second; undefined: as fast as the rest allows. */
  rate(key: string): number | undefined {
    return this.board().update(key, (slot) => this.rateOf(key, slot, this.clock()));
  }

  private rateOf(key: string, slot: Slot, now: number): number | undefined {
    const cap = this.caps.get(key);
    // A cap too is paced a little below: two requests sent a slot apart may arrive closer together.
    const rates: number[] = cap === undefined ? [] : [cap * MARGIN];
    const limit = slot.get('limit');
    const window = slot.get('policyWindow') || slot.get('window') || slot.get('guess');
    if (limit > 0 && window > 0) rates.push(Math.max(limit * MARGIN, 1) / (window / 1000));
    const learned = slot.get('learned');
    if (learned > 0) rates.push(learned);
    const untilReset = slot.get('reset') - now;
    const left = budgetLeft(slot, now);
    if (left !== undefined && untilReset >= SPREAD_MS) rates.push(Math.max(left, 1) / (untilReset / 1000));
    return rates.length ? Math.min(...rates) : undefined;
  }

  /**
   * What the answer to request `number` said: its quota, the budget left and its reset, the window its resets step by.
   * An accepted answer (not a 429) counts toward the rate a 429 would teach, and raises a rate one taught.
   */
  observe(key: string, number: number, note: RateLimitNote, accepted: boolean): void {
    this.board().update(key, (slot) => {
      const now = this.clock();
      if (accepted) {
        countAccepted(slot, now);
        const learned = slot.get('learned');
        if (learned > 0) slot.set('learned', learned * CREEP);
      }
      if (note.quota) {
        slot.set('limit', note.quota.limit);
        slot.set('policyWindow', note.quota.windowMs);
      } else if (note.limit !== undefined) slot.set('limit', note.limit);
      if (note.resetEpochSeconds !== undefined) learnWindow(slot, note.resetEpochSeconds, now);
      // Until the window shows, it is taken to be as long as the first reset was far: a reset within the second says a
      // limit per second, and a fixed window's quota (the budget) keeps the guess from overdrawing a longer one.
      if (note.resetAt !== undefined && !slot.get('guess')) slot.set('guess', Math.max(1, Math.ceil((note.resetAt - now) / 1000)) * 1000);
      if (note.remaining !== undefined && note.resetAt !== undefined && number > slot.get('said')) {
        slot.set('said', number);
        slot.set('budget', number + note.remaining);
        slot.set('reset', note.resetAt);
      }
    });
  }

  /** A 429: the origin pauses `waitMs`; the first 429 of an episode sets the rate below what it accepted in the last second. */
  throttle(key: string, waitMs: number): void {
    this.board().update(key, (slot) => {
      const now = this.clock();
      // The requests already in flight when the first 429 came are answered 429 too: one pause, one cut of the rate.
      const sameEpisode = now < slot.get('pause');
      restart(slot, Math.max(slot.get('pause'), now + waitMs));
      if (sameEpisode || !this.learnsFrom429 || this.caps.has(key)) return;
      const proposal = Math.max(1, Math.floor(acceptedLastSecond(slot, now) * 0.8));
      const learned = slot.get('learned');
      slot.set('learned', learned > 0 ? Math.max(1, Math.min(learned / 2, proposal)) : proposal);
      for (const field of ['thisSecond', 'lastSecond'] satisfies Field[]) slot.set(field, 0);
    });
  }
}

/** The requests the latest quota still allows before its reset (0: spent), or undefined when none is known or it reset. */
function budgetLeft(slot: Slot, now: number): number | undefined {
  const budget = slot.get('budget');
  if (budget < 0 || now >= slot.get('reset')) return undefined;
  return Math.max(0, budget - slot.get('sent'));
}

/** No request before `until`; the rate's schedule starts again there. */
function restart(slot: Slot, until: number): void {
  slot.set('pause', until);
  slot.set('next', until);
  slot.set('epoch', slot.get('epoch') + 1);
}

/**
 * Okta's reset steps by its window when a window ends: the least step seen is the window. A step is taken only from
 * answers at most half of it apart: over a longer gap the reset may have stepped more than once (k windows take more
 * than k - 1 of them to pass). The preflight's answer and the suite's first come some seconds apart, and a step of 3 s
 * taken for the window had the first 300 requests given slots a third of the rate apart.
 */
function learnWindow(slot: Slot, seconds: number, now: number): void {
  const before = slot.get('resetSeconds');
  if (before > 0 && seconds > before) {
    const step = (seconds - before) * 1000;
    const known = slot.get('window');
    if (now - slot.get('resetSeenAt') <= step / 2) slot.set('window', known > 0 ? Math.min(known, step) : step);
  }
  slot.set('resetSeconds', Math.max(before, seconds));
  slot.set('resetSeenAt', now);
}

/** Moves the per-second counts on to the second `now` is in. */
function rollSeconds(slot: Slot, now: number): void {
  const second = Math.floor(now / 1000);
  const at = slot.get('second');
  if (second === at) return;
  slot.set('lastSecond', second === at + 1 ? slot.get('thisSecond') : 0);
  slot.set('thisSecond', 0);
  slot.set('second', second);
}

function countAccepted(slot: Slot, now: number): void {
  rollSeconds(slot, now);
  slot.set('thisSecond', slot.get('thisSecond') + 1);
}

/** Answers accepted in the second before `now`: this second's, and the share of the last one still within it. */
function acceptedLastSecond(slot: Slot, now: number): number {
  rollSeconds(slot, now);
  return slot.get('lastSecond') * (1 - (now % 1000) / 1000) + slot.get('thisSecond');
}
