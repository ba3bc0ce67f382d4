import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { addressVerdict, type Network, type Resolver, type WebhookTarget } from './ssrf.ts';

/** Every address of the name, as the system resolves it. */
export const defaultResolver: Resolver = async (host) => {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

/** The addresses of this host's network interfaces, read at every check (interfaces come and go). */
export function hostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address),
  );
}

/**
 * What webhook delivery asks of the host: the guard's checks (`Network`) and the lookup a request to a checked target
 * connects with. Injectable (buildApp's `webhookNetwork`) so a test can stand a local receiver in for a public host.
 */
export type WebhookNetwork = Network & { connectLookup(target: WebhookTarget): LookupFunction };

/**
 * The lookup a webhook request connects with: it never resolves the host again (DNS rebinding) but hands the socket the
 * addresses the guard checked — each checked once more at connect time against this server's interfaces as they are
 * then — all of them where the socket tries several (happy eyeballs), else the first.
 */
export function checkedLookup(target: WebhookTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const own = hostAddresses();
    const usable = target.addresses.filter(
      (candidate) => addressVerdict(candidate.address, target.privateOpen, own) === undefined,
    );
    const [first] = usable;
    if (!first) {
      const error = Object.assign(new Error('no checked address may be connected to'), { code: 'EREFUSED' });
      callback(error, '', 0);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/** The network the SSRF guard checks webhook targets against, and connects through: this host's. */
export const hostNetwork: WebhookNetwork = {
  resolve: defaultResolver,
  ownAddresses: hostAddresses,
  connectLookup: checkedLookup,
};
