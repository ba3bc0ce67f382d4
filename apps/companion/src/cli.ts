#!/usr/bin/env node
/**
 * `edgeport connect --server <origin> --token <token> --local-port <port> [--bind 127.0.0.1]`: forwards a local
 * TCP port through the Edgeport server to a machine behind a gateway (the token comes from the portal).
 */
import { parseArgs } from 'node:util';
import { ForwarderError, startForwarder } from './forwarder.ts';

const USAGE = `usage: edgeport connect --server <portal origin> --token <session token> --local-port <port> [--bind <address>]

Forwards a local TCP port through the Edgeport portal to a machine behind a gateway. The portal shows the
command with its token when you open a TCP application or request credentials. The token may also be given in
the EDGEPORT_TOKEN environment variable. Ctrl-C stops forwarding.`;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      'local-port': { type: 'string' },
      bind: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals[0] !== 'connect' || positionals.length > 1) fail(`unknown command\n${USAGE}`);
  const server = values.server ?? fail('--server is missing');
  const token = values.token ?? process.env.EDGEPORT_TOKEN ?? fail('--token is missing');
  const portText = values['local-port'] ?? fail('--local-port is missing');
  const localPort = Number(portText);
  if (!/^\d+$/.test(portText) || localPort > 65535)
    fail(`--local-port must be a port number, got ${portText}`);

  const log = (line: string) => process.stdout.write(`${line}\n`);
  const forwarder = await startForwarder({ server, token, localPort, bind: values.bind, log });
  log(`listening on ${values.bind}:${forwarder.port}`);
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await forwarder.close();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ForwarderError) fail(error.message);
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE')
    fail(`the local port is in use: ${error.message}`);
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    fail(`${error.message}\n${USAGE}`);
  fail(error instanceof Error ? error.message : String(error));
});
