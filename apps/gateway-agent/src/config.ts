/** Reading the edge configuration file and the CLI's `--endpoint` values. */
import type { vpn } from '@edgeport/contract';
import { type AgentEndpoint, ENDPOINT_PROTOCOLS } from '@edgeport/tunnel-protocol';

function field(value: Record<string, unknown>, key: string): string {
  const text = value[key];
  if (typeof text !== 'string' || text === '') throw new Error(`the edge configuration file has no ${key}`);
  return text;
}

/** The edge configuration file's JSON, checked for what the agent needs. */
export function parseEdgeConfig(json: string): vpn.EdgeConfigFile {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('the edge configuration file is not JSON');
  }
  if (typeof value !== 'object' || value === null)
    throw new Error('the edge configuration file is not an object');
  const config = value as Record<string, unknown>;
  if (config.version !== 1) throw new Error('the edge configuration file has an unknown version');
  const tunnelUrl = field(config, 'tunnelUrl');
  if (!/^wss?:\/\//.test(tunnelUrl)) throw new Error('tunnelUrl must be a ws: or wss: URL');
  const lanNetwork = config.lanNetwork;
  return {
    version: 1,
    server: field(config, 'server'),
    tunnelUrl,
    gatewayId: field(config, 'gatewayId'),
    secret: field(config, 'secret'),
    name: field(config, 'name'),
    domain: typeof config.domain === 'string' ? config.domain : '',
    lanNetwork: typeof lanNetwork === 'string' && lanNetwork !== '' ? lanNetwork : null,
    issuedAt: typeof config.issuedAt === 'string' ? config.issuedAt : '',
  };
}

/** `name=address:port/PROTOCOL` (protocol HTTP, HTTPS or TCP; default TCP). */
export function parseEndpoint(text: string): AgentEndpoint {
  const match = /^([^=]+)=([^:/]+):(\d{1,5})(?:\/([A-Za-z]+))?$/.exec(text.trim());
  if (!match?.[1] || !match[2] || !match[3])
    throw new Error(`--endpoint '${text}' is not name=address:port/PROTOCOL`);
  const protocol = (match[4] ?? 'TCP').toUpperCase();
  if (!(ENDPOINT_PROTOCOLS as readonly string[]).includes(protocol))
    throw new Error(`--endpoint '${text}': the protocol must be one of ${ENDPOINT_PROTOCOLS.join(', ')}`);
  const port = Number(match[3]);
  if (port < 1 || port > 65535) throw new Error(`--endpoint '${text}': the port must be 1..65535`);
  return { name: match[1].trim(), address: match[2], protocol: protocol as AgentEndpoint['protocol'], port };
}
