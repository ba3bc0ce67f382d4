/**
 * Collects items and writes them in batches, one batch in flight at a time: whatever arrives while a batch is being
 * written goes into the next one. Under light load a batch holds what arrived in one turn of the event loop (low
 * latency); under heavy load batches grow up to `maxBatch` (high throughput). Each `add` resolves once its batch is
 * written, or rejects if writing failed — so an MQTT acknowledgement can wait for storage.
 */
export class BatchWriter<T> {
  private pending: { item: T; settle: (error?: unknown) => void }[] = [];
  private writing: Promise<void> | undefined;
  private readonly write: (items: T[]) => Promise<void>;
  private readonly maxBatch: number;

  constructor(write: (items: T[]) => Promise<void>, maxBatch = 5000) {
    this.write = write;
    this.maxBatch = maxBatch;
  }

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) this.writing = this.drainSoon();
    });
  }

  get queued(): number {
    return this.pending.length;
  }

  /** Resolves when everything added so far is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drainSoon(): Promise<void> {
    // Let the rest of this event-loop turn (the other packets of one socket read) join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((entry) => entry.item));
        for (const entry of batch) entry.settle();
      } catch (error) {
        for (const entry of batch) entry.settle(error ?? new Error('batch write failed'));
      }
    }
    this.writing = undefined;
  }
}
