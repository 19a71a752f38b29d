// The pacing state of each origin in memory that every thread of the process shares: a live run's workers are threads
// of one process, each with its own transport, and an identity provider's limit is one for all of them. The threads
// find one board over a BroadcastChannel (the one whose maker has the lowest thread id wins, so a late worker adopts the
// board the others already pace by); each origin's numbers sit in a slot, changed under that slot's lock.
import { BroadcastChannel, threadId } from 'node:worker_threads';

/** The numbers kept per origin (all in ms since the epoch, counts, or requests per second). */
export const FIELDS = [
  /** A hash of the origin's key: 0 marks a free slot. */
  'key',
  /** The time of the next free slot of the origin's rate, and the time the last request went. */
  'next',
  'last',
  /** No request goes before this (a 429's wait, or a quota spent until its reset). */
  'pause',
  /** Raised each time the schedule restarts (a pause): slots taken before it are taken again. */
  'epoch',
  /** The rate learned from the 429s met, 0 none. */
  'learned',
  /** Requests sent to the origin so far (a request's number is the count when it went). */
  'sent',
  /** From the latest answer with a quota: the number of the last request it still allows before `reset`, -1 none. */
  'budget',
  /** When that quota is whole again. */
  'reset',
  /** The number of the request whose answer said it (a later request's answer is newer news). */
  'said',
  /** The latest reset in epoch seconds (Okta's form), when an answer last told one, and the least step between two of
   * them seen close together: the window, in ms. */
  'resetSeconds',
  'resetSeenAt',
  'window',
  /** Until a step shows the window: a guess from the first reset seen (its distance in whole seconds, at least 1 s). */
  'guess',
  /** The quota's limit (requests per window, 0 unknown), and the window a policy said outright (ms, 0 none). */
  'limit',
  'policyWindow',
  /** Answers accepted per second: the second they count in, its count and the one before (a sliding window). */
  'second',
  'thisSecond',
  'lastSecond',
] as const;
export type Field = (typeof FIELDS)[number];

const WIDTH = FIELDS.length;
const INDEX = Object.fromEntries(FIELDS.map((name, i) => [name, i])) as Record<Field, number>;
/** Origins a board keeps; a process meets three APIs, a self-test some more. Past this, an origin is paced alone. */
export const BOARD_SLOTS = 256;
/** The lock of the slot table itself (claiming a slot), after the slots' own. */
const TABLE_LOCK = BOARD_SLOTS;

/** One origin's numbers, read and written under its lock. */
export interface Slot {
  get(field: Field): number;
  set(field: Field, value: number): void;
}

/** A 48-bit FNV-1a hash of the key, never 0: exact in a float64, and 0 marks a free slot. */
function hashOf(key: string): number {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  for (let i = 0; i < key.length; i++) {
    low = Math.imul(low ^ key.charCodeAt(i), 0x01000193) >>> 0;
    high = Math.imul(high ^ (low >>> 7), 0x01000193) >>> 0;
  }
  return (high & 0xffff) * 2 ** 32 + low || 1;
}

export class PaceBoard {
  readonly buffer: SharedArrayBuffer;
  private readonly locks: Int32Array;
  private readonly values: Float64Array;
  private readonly slots = new Map<string, number>();
  /** Origins that found no free slot: paced by this thread alone. */
  private readonly alone = new Map<string, Float64Array>();

  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(BOARD_SLOTS * WIDTH * 8 + (BOARD_SLOTS + 1) * 4);
    this.values = new Float64Array(this.buffer, 0, BOARD_SLOTS * WIDTH);
    this.locks = new Int32Array(this.buffer, BOARD_SLOTS * WIDTH * 8, BOARD_SLOTS + 1);
  }

  /** Runs `change` on the origin's numbers under its lock (never across an await: the other threads spin meanwhile). */
  update<T>(key: string, change: (slot: Slot) => T): T {
    const index = this.slotOf(key);
    if (index === undefined) {
      const own = this.alone.get(key) ?? fresh();
      this.alone.set(key, own);
      return change(view(own, 0));
    }
    this.lock(index);
    try {
      return change(view(this.values, index * WIDTH));
    } finally {
      Atomics.store(this.locks, index, 0);
    }
  }

  private lock(index: number): void {
    // Held for a few arithmetic steps by whichever thread has it.
    while (Atomics.compareExchange(this.locks, index, 0, 1) !== 0);
  }

  private slotOf(key: string): number | undefined {
    const known = this.slots.get(key);
    if (known !== undefined) return known;
    const hash = hashOf(key);
    this.lock(TABLE_LOCK);
    try {
      for (let probe = 0; probe < BOARD_SLOTS; probe++) {
        const index = (hash + probe) % BOARD_SLOTS;
        const held = this.values[index * WIDTH + INDEX.key]!;
        if (held !== 0 && held !== hash) continue;
        if (held === 0) this.values.set(fresh(hash), index * WIDTH);
        this.slots.set(key, index);
        return index;
      }
      return undefined;
    } finally {
      Atomics.store(this.locks, TABLE_LOCK, 0);
    }
  }
}

/** A slot's numbers before anything is known. */
function fresh(hash = 1): Float64Array {
  const numbers = new Float64Array(WIDTH);
  numbers[INDEX.key] = hash;
  numbers[INDEX.budget] = -1;
  numbers[INDEX.said] = -1;
  return numbers;
}

function view(values: Float64Array, base: number): Slot {
  return {
    get: (field) => values[base + INDEX[field]]!,
    set: (field, value) => {
      values[base + INDEX[field]] = value;
    },
  };
}

const CHANNEL = `lp-contract-pace-board-${process.pid}`;
let shared: { board: PaceBoard; maker: number } | undefined;

/**
 * The board this thread paces by, shared with every thread of the process that uses one: the first call makes one and
 * announces it; an announced board whose maker has a lower thread id replaces it, and a thread that hears of a board
 * made later answers with its own, so every thread ends on the same one within a message's time.
 */
export function sharedBoard(): PaceBoard {
  return joinBoard().board;
}

/** The thread id of the shared board's maker (the thread that made the board this thread paces by). */
export const boardMaker = (): number => joinBoard().maker;

function joinBoard(): { board: PaceBoard; maker: number } {
  if (shared) return shared;
  shared = { board: new PaceBoard(), maker: threadId };
  const channel = new BroadcastChannel(CHANNEL);
  // The channel must not keep a thread (a worker, the runner) alive once its work is done.
  channel.unref();
  const announce = () => channel.postMessage({ maker: shared!.maker, buffer: shared!.board.buffer });
  channel.onmessage = (event: unknown) => {
    const data = (event as { data?: { maker?: unknown; buffer?: unknown } }).data;
    if (typeof data?.maker !== 'number' || !(data.buffer instanceof SharedArrayBuffer)) return;
    if (data.maker < shared!.maker) shared = { board: new PaceBoard(data.buffer), maker: data.maker };
    else if (data.maker > shared!.maker) announce();
  };
  announce();
  return shared;
}
