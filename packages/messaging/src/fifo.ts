/**
 * A first-in-first-out queue with O(1) shift. Array#shift copies the whole array once it
 * is large, which made 20,000 queued publishers spend a fifth of their CPU time shifting.
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head += 1;
    // Drop the consumed prefix once it is most of the array (amortised O(1)).
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Removes and returns up to `limit` items from the front. */
  take(limit: number): T[] {
    const taken: T[] = [];
    while (taken.length < limit && this.length > 0) taken.push(this.shift() as T);
    return taken;
  }
}
