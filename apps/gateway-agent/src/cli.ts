#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AGENT_VERSION, startAgent } from './agent.ts';
import { parseEdgeConfig, parseEndpoint } from './config.ts';

const USAGE = `edgeport-gateway ${AGENT_VERSION}: the Edgeport gateway agent (runs at the plant)

  --config <file>       the edge configuration file downloaded from the portal (required)
  --lan <cidr>          the plant LAN, for example 192.168.10.0/24 (default: the file's)
  --endpoint <spec>     name=address:port/PROTOCOL (HTTP, HTTPS or TCP), reported to the portal; repeatable
  --ca <file>           a PEM CA bundle to trust for wss: (default: the system's)
  --help`;

function main(): void {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      lan: { type: 'string' },
      endpoint: { type: 'string', multiple: true, default: [] },
      ca: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.config) {
    console.error(USAGE);
    process.exit(2);
  }
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  let agent: ReturnType<typeof startAgent>;
  try {
    const config = parseEdgeConfig(readFileSync(values.config, 'utf8'));
    const endpoints = values.endpoint.map(parseEndpoint);
    log(`edgeport-gateway ${AGENT_VERSION} started for gateway ${config.name} (${config.domain})`);
    agent = startAgent({
      config,
      lanNetwork: values.lan,
      endpoints,
      log,
      tls: values.ca ? { ca: readFileSync(values.ca) } : undefined,
    });
  } catch (error) {
    console.error(`edgeport-gateway: ${(error as Error).message}`);
    process.exit(2);
  }
  const stop = (signal: string) => {
    log(`stopping (${signal})`);
    agent.close().then(() => process.exit(0));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main();
