/**
 * The server's time for everything with a term (licences, app billing, trials). Production uses the system clock;
 * test servers (TEST_FIXTURES) let a test move it forward through `POST /test-support/clock`, so expiry can be
 * shown end to end without waiting a year.
 */
export class Clock {
  #offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  /** Moves the time forward (tests only). */
  advance(ms: number): Date {
    this.#offsetMs += ms;
    return this.now();
  }

  /** Back to the system time (tests only: browser tests share one server). */
  reset(): Date {
    this.#offsetMs = 0;
    return this.now();
  }
}
