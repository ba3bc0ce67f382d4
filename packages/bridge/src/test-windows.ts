import type { MessageEventLike, MessageListener, WindowLike } from './protocol.ts';

/** One `postMessage` call as the receiving side saw it (or would have, had the target origin matched). */
export type Posted = { data: unknown; targetOrigin: string; delivered: boolean };

/**
 * A test double of a browser window with an origin. Messages are delivered asynchronously (like `postMessage`) and
 * only when the target origin matches, with the sender's origin and the sender's window as `source`.
 */
export class FakeWindow implements WindowLike {
  readonly origin: string;
  readonly received: MessageEventLike[] = [];
  readonly #listeners = new Set<MessageListener>();

  constructor(origin: string) {
    this.origin = origin;
  }

  addEventListener(_type: 'message', listener: MessageListener): void {
    this.#listeners.add(listener);
  }

  removeEventListener(_type: 'message', listener: MessageListener): void {
    this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Posting straight at a FakeWindow has no sender: use `from(sender)`. */
  postMessage(): void {
    throw new Error('post through windowSeenFrom(target, sender)');
  }

  dispatch(event: MessageEventLike): void {
    this.received.push(event);
    for (const listener of [...this.#listeners]) listener(event);
  }
}

/** How `target` looks from `sender`'s side: what `window.parent` or `iframe.contentWindow` would be. */
export class WindowRef implements WindowLike {
  readonly target: FakeWindow;
  readonly sender: FakeWindow;
  /** The reference the receiver sees as `event.source` (set by `link`). */
  back: WindowRef | undefined;
  readonly posted: Posted[] = [];

  constructor(target: FakeWindow, sender: FakeWindow) {
    this.target = target;
    this.sender = sender;
  }

  postMessage(message: unknown, targetOrigin: string): void {
    const delivered = targetOrigin === '*' || targetOrigin === this.target.origin;
    const data = structuredClone(message);
    this.posted.push({ data, targetOrigin, delivered });
    if (!delivered) return;
    const source = this.back;
    queueMicrotask(() => this.target.dispatch({ data, origin: this.sender.origin, source }));
  }

  addEventListener(type: 'message', listener: MessageListener): void {
    this.target.addEventListener(type, listener);
  }

  removeEventListener(type: 'message', listener: MessageListener): void {
    this.target.removeEventListener(type, listener);
  }
}

/** Two windows that can post to each other: `aToB` is b as a sees it, `bToA` is a as b sees it. */
export function link(a: FakeWindow, b: FakeWindow): { aToB: WindowRef; bToA: WindowRef } {
  const aToB = new WindowRef(b, a);
  const bToA = new WindowRef(a, b);
  aToB.back = bToA;
  bToA.back = aToB;
  return { aToB, bToA };
}

/** Lets queued deliveries (and the promise work they start) run. */
export async function flush(rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await Promise.resolve();
}
