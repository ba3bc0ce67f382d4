/**
 * The remote-access benchmark's yardstick: the cheapest relay Node can be, a process that accepts TCP connections and
 * pipes each to `host:port` and back (no protocol, no checks). Three of them in a row are the tunnel's path without
 * its work (companion → server → agent). Usage: node bench/remote-access-relay.ts <host> <port>; prints `relay on
 * {port}` when listening.
 */
import net from 'node:net';

const [host = '127.0.0.1', port = '0'] = process.argv.slice(2);
const relay = net.createServer((inbound) => {
  const outbound = net.connect(Number(port), host);
  inbound.pipe(outbound).on('error', () => inbound.destroy());
  outbound.pipe(inbound).on('error', () => outbound.destroy());
  inbound.on('error', () => outbound.destroy());
  outbound.on('error', () => inbound.destroy());
});
relay.listen(0, '127.0.0.1', () => {
  const address = relay.address();
  if (address && typeof address === 'object') console.log(`relay on ${address.port}`);
});
