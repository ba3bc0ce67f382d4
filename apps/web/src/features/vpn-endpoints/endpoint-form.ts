import { vpn } from '@edgeport/contract/values';

export type EndpointProtocol = (typeof vpn.ENDPOINT_PROTOCOLS)[number];
export const ENDPOINT_PROTOCOLS: readonly EndpointProtocol[] = vpn.ENDPOINT_PROTOCOLS;

/** The port a protocol usually listens on; TCP has none (VNC, SSH, Modbus/TCP, OPC UA all differ). */
export const DEFAULT_PORTS: Readonly<Record<EndpointProtocol, number | undefined>> = {
  HTTP: 80,
  HTTPS: 443,
  TCP: undefined,
};

/** What the "New endpoint" form holds (the port as typed). */
export type EndpointFormValues = {
  gateway: string;
  name: string;
  address: string;
  protocol: EndpointProtocol;
  port: string;
  description: string;
};

export type EndpointField = 'gateway' | 'name' | 'address' | 'port' | 'description';
/** The message key (under `vpnEndpoints.validation`) of what is wrong with each field. */
export type EndpointProblems = Partial<Record<EndpointField, string>>;

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

export function emptyEndpointForm(gateway = ''): EndpointFormValues {
  return {
    gateway,
    name: '',
    address: '',
    protocol: 'HTTP',
    port: String(DEFAULT_PORTS.HTTP),
    description: '',
  };
}

/** Whether `text` is a dotted-quad IPv4 address (four numbers 0..255, no leading zeros, no short forms). */
export function isIPv4Address(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/** The port as a number when it is a whole number 1..65535, else undefined. */
export function parsePort(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return undefined;
  const port = Number(trimmed);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** Names end up in addresses (spec 7 paths): neither empty nor holding a slash or backslash. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'nameRequired';
  if (trimmed.length > NAME_MAX) return 'nameTooLong';
  if (/[/\\]/.test(trimmed)) return 'nameSlash';
  return undefined;
}

/** What the form refuses before asking the server (the LAN and forbidden ranges are the server's to judge). */
export function endpointFormProblems(values: EndpointFormValues): EndpointProblems {
  const problems: EndpointProblems = {};
  if (values.gateway === '') problems.gateway = 'gatewayRequired';
  const name = nameProblem(values.name);
  if (name) problems.name = name;
  const address = values.address.trim();
  if (address === '') problems.address = 'addressRequired';
  else if (!isIPv4Address(address)) problems.address = 'addressFormat';
  if (parsePort(values.port) === undefined) problems.port = 'portRange';
  if (values.description.length > DESCRIPTION_MAX) problems.description = 'descriptionTooLong';
  return problems;
}

/**
 * The port after the protocol changes: the new protocol's default when the port was empty or the old protocol's
 * default (so HTTP 80 becomes HTTPS 443), otherwise what the user typed.
 */
export function portAfterProtocolChange(
  previous: EndpointProtocol,
  next: EndpointProtocol,
  port: string,
): string {
  const previousDefault = DEFAULT_PORTS[previous];
  const untouched =
    port.trim() === '' || (previousDefault !== undefined && port.trim() === String(previousDefault));
  if (!untouched) return port;
  const nextDefault = DEFAULT_PORTS[next];
  return nextDefault === undefined ? '' : String(nextDefault);
}

/** The body of `POST /endpoints/` for a valid form. */
export function endpointCreateBody(domain: string, values: EndpointFormValues) {
  const description = values.description.trim();
  return {
    domain,
    gateway: values.gateway,
    name: values.name.trim(),
    address: values.address.trim(),
    protocol: values.protocol,
    port: parsePort(values.port) ?? 0,
    ...(description !== '' && { description }),
  };
}

/** A server refusal of the address, as a message key (under `vpnEndpoints.refusal`) and its values. */
export type AddressRefusal = { key: string; values: Record<string, string> };

/**
 * What the server said about the address ("address: 10.0.0.5 is outside the gateway's LAN 10.213.0.0/24"): the
 * kind of refusal in the user's language, with the LAN it names. Undefined when the message is not about the
 * address; a refusal of a kind not known here keeps the server's words (`other`).
 */
export function addressRefusal(serverMessage: string | undefined): AddressRefusal | undefined {
  if (!serverMessage) return undefined;
  const match = /(?:^|\s|\/)address\s*:?\s*(.*)$/is.exec(serverMessage.trim());
  if (!match) return undefined;
  const problem = (match[1] ?? '').trim();
  const lan = /(\d{1,3}(?:\.\d{1,3}){3}\/\d{1,2})/.exec(problem)?.[1] ?? '';
  if (/outside/i.test(problem)) return { key: 'outsideLan', values: { lan } };
  if (/forbidden|loopback|link-local|multicast|reserved/i.test(problem))
    return { key: 'forbidden', values: {} };
  if (/no LAN|lanNetwork/i.test(problem)) return { key: 'noLan', values: {} };
  if (/network or broadcast/i.test(problem)) return { key: 'networkOrBroadcast', values: { lan } };
  if (/not an IPv4/i.test(problem)) return { key: 'format', values: {} };
  return { key: 'other', values: { detail: problem || serverMessage.trim() } };
}
