import type { Duplex } from 'node:stream';

/**
 * Pipes two duplex streams into each other (a tunnel stream and a TCP socket, say), keeping half-closes: the end of
 * one side's data ends the other side's writing only. An error on either side destroys the other (a socket reset
 * resets the stream and the other way round). `done` is called once, when both are closed. Sockets should be
 * `allowHalfOpen`, so that a half-close does not end them early.
 */
export function joinStreams(a: Duplex, b: Duplex, done?: (error: Error | undefined) => void): void {
  let firstError: Error | undefined;
  let closed = 0;
  const onClose = (self: Duplex, other: Duplex) => () => {
    closed += 1;
    // Closed before both directions finished (destroyed without an error): the other side cannot go on either.
    if (!other.destroyed && !(self.readableEnded && self.writableFinished))
      other.destroy(self.errored ?? new Error('the other side closed'));
    if (closed === 2) done?.(firstError);
  };
  const fail = (other: Duplex) => (error: Error) => {
    firstError ??= error;
    if (!other.destroyed) other.destroy(error);
  };
  a.on('error', fail(b));
  b.on('error', fail(a));
  a.once('close', onClose(a, b));
  b.once('close', onClose(b, a));
  a.pipe(b);
  b.pipe(a);
}
