import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { type AgentHandle, startAgent } from '@edgeport/gateway-agent';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { gateways, vpnEndpoints } from '../db/schema.ts';
import { issueAgentConfiguration } from '../services/vpn/fixtures.ts';
import { DEMO_GATEWAY } from './vpn.ts';

type Machine = { server: net.Server; port: number };

/** The operator panel of the packaging hall: a small web page with a form and a cookie, like a real HMI's. */
function hmiPage(request: http.IncomingMessage, response: http.ServerResponse) {
  const speed = (110 + Math.round(Math.random() * 20)).toString();
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'set-cookie': 'hmi-session=operator; Path=/',
  });
  response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Packaging hall HMI</title>
<style>body{font-family:sans-serif;background:#10212f;color:#e8f1f8;margin:2rem}td{padding:.3rem 1rem}</style></head>
<body><h1>Packaging hall — operator panel</h1>
<p>Simulated machine behind the demo gateway, reached through the Edgeport tunnel (${request.method} ${request.url}).</p>
<table><tr><td>Line speed</td><td>${speed} packs/min</td></tr><tr><td>Glue tank</td><td>ok</td></tr>
<tr><td>Panel time</td><td>${new Date().toISOString()}</td></tr></table>
<form method="post" action="/ack"><button>Acknowledge warnings</button></form></body></html>`);
}

/** The line controller: answers every request with its name, then echoes (a stand-in for Modbus/TCP). */
function plcSession(socket: net.Socket) {
  socket.on('error', () => {});
  socket.write('PLC line controller (simulated)\r\n');
  socket.pipe(socket);
}

async function listen(server: net.Server): Promise<Machine> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

function refused(): net.Socket {
  const socket = new net.Socket();
  process.nextTick(() =>
    socket.destroy(
      Object.assign(new Error('connect ECONNREFUSED (no such machine in the demo plant)'), {
        code: 'ECONNREFUSED',
      }),
    ),
  );
  return socket;
}

/**
 * The demo's plant: the demo gateway's HMI and PLC served on local ports, and its gateway agent connected to this
 * server (a fresh agent secret each start), so `/vpn` shows the gateway online and "Open" reaches the HMI through
 * the real tunnel. The agent reaches the machines' LAN addresses through `dial`, never the visitor's own network.
 */
export async function startDemoPlant(
  db: Db,
  organizationId: string,
  serverUrl: string,
): Promise<() => Promise<void>> {
  const [gateway] = await db
    .select()
    .from(gateways)
    .where(and(eq(gateways.organizationId, organizationId), eq(gateways.name, DEMO_GATEWAY)));
  if (!gateway) return async () => {};
  const hmi = await listen(http.createServer(hmiPage));
  const plc = await listen(net.createServer(plcSession));
  const endpoints = await db.select().from(vpnEndpoints).where(eq(vpnEndpoints.gatewayId, gateway.id));
  const machines = new Map(
    endpoints.map((endpoint) => [
      `${endpoint.address}:${endpoint.port}`,
      endpoint.protocol === 'TCP' ? plc : hmi,
    ]),
  );
  const config = await issueAgentConfiguration(db, gateway.id, `${serverUrl.replace(/^http/, 'ws')}/tunnel`);
  const agent: AgentHandle = startAgent({
    config,
    dial: ({ host, port }) => {
      const machine = machines.get(`${host}:${port}`);
      return machine ? net.connect({ host: '127.0.0.1', port: machine.port }) : refused();
    },
  });
  return async () => {
    await agent.close();
    hmi.server.close();
    plc.server.close();
  };
}
