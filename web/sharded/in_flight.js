// Shards being opened, held to two limits: how many at once (`concurrency`) and how many header
// bytes at once (`maxBytesInFlight`), so that opening every shard of a big model at once still
// keeps its memory bounded. A shard is admitted with the bytes its first read will bring; a
// header longer than that asks for its whole length before it is read (`recharge`). One that
// needs more than the limit alone is let through when nothing else holds bytes.

/**
 * @typedef {object} Waiter
 * @property {boolean} slot whether it waits for a slot too (admission), or for bytes only
 * @property {number} bytes
 * @property {() => void} admit
 */

export class InFlight {
  /**
   * @param {number} limit the most items at once
   * @param {number} maxBytes the most bytes charged at once
   */
  constructor(limit, maxBytes) {
    this.limit = limit;
    this.maxBytes = maxBytes;
    this.count = 0;
    this.bytes = 0;
    /** @type {Waiter[]} items that hold a slot and wait for more bytes: served first */
    this.recharges = [];
    /** @type {Waiter[]} items waiting to start */
    this.admissions = [];
  }

  /**
   * Resolves when an item charged `bytes` may start; rejects with the signal's reason on abort.
   * @param {number} bytes
   * @param {AbortSignal} [signal]
   * @returns {Promise<void>}
   */
  admit(bytes, signal) {
    return this.#wait(this.admissions, { slot: true, bytes }, signal);
  }

  /**
   * An item that holds `held` bytes now needs `bytes` instead: resolves when it may have them
   * (at once when they are fewer). The item holds nothing while it waits, so a waiter never
   * blocks another.
   * @param {number} held
   * @param {number} bytes
   * @param {AbortSignal} [signal]
   * @returns {Promise<void>}
   */
  recharge(held, bytes, signal) {
    this.bytes -= held;
    if (bytes <= held) {
      this.bytes += bytes;
      this.#pump();
      return Promise.resolve();
    }
    const waiting = this.#wait(this.recharges, { slot: false, bytes }, signal);
    this.#pump();
    return waiting;
  }

  /**
   * An item is done: its slot and its `bytes` are free.
   * @param {number} bytes
   */
  release(bytes) {
    this.count--;
    this.bytes -= bytes;
    this.#pump();
  }

  /**
   * @param {Waiter[]} queue
   * @param {Omit<Waiter, 'admit'>} want
   * @param {AbortSignal} [signal]
   * @returns {Promise<void>}
   */
  #wait(queue, want, signal) {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (queue.length === 0 && this.recharges.length === 0 && this.#fits(want)) {
      this.#take(want);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason);
        this.#pump();
      };
      /** @type {Waiter} */
      const waiter = {
        ...want,
        admit: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(waiter);
    });
  }

  /** @param {Omit<Waiter, 'admit'>} want */
  #fits({ slot, bytes }) {
    return (!slot || this.count < this.limit) && (this.bytes === 0 || this.bytes + bytes <= this.maxBytes);
  }

  /** @param {Omit<Waiter, 'admit'>} want */
  #take({ slot, bytes }) {
    if (slot) this.count++;
    this.bytes += bytes;
  }

  /** Admits waiters in order, recharges first, until one does not fit. */
  #pump() {
    for (const queue of [this.recharges, this.admissions]) {
      while (queue.length > 0 && this.#fits(queue[0])) {
        const waiter = /** @type {Waiter} */ (queue.shift());
        this.#take(waiter);
        waiter.admit();
      }
      if (queue.length > 0) return;
    }
  }
}
