// A first-in first-out queue over an array with a moving head: push and shift are O(1)
// (amortised), unlike Array.prototype.shift, which moves every remaining element.
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** The item at position `index` from the oldest (0). */
  at(index: number): T | undefined {
    return index >= 0 && index < this.length ? this.items[this.head + index] : undefined;
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head] = undefined as T; // let it be collected before the next compaction
    this.head += 1;
    // Drop the consumed prefix once it is at least half of the array.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  get length(): number {
    return this.items.length - this.head;
  }
}
