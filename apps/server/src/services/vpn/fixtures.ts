import { vpn } from '@edgeport/contract';
import { endpointAddressProblem, ipFilterEntryProblem, parseLanNetwork } from '@edgeport/tunnel-protocol';
import { and, eq } from 'drizzle-orm';
import { type Static, Type } from 'typebox';
import type { Db } from '../../db/index.ts';
import {
  deviceLicenses,
  gateways,
  organizations,
  vpnActionProfiles,
  vpnActions,
  vpnEndpoints,
} from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import { generateActivationKey } from '../license/keys.ts';
import { createGatewayForDevice } from './gateways/provisioning.ts';
import { newSecret, secretHash } from './secrets.ts';

const Protocol = vpn.Protocol;

/**
 * A gateway for fixtures, tests and the demo: a device with an ACTIVE VPN device licence, its gateway, optionally a
 * LAN, an application profile (found or made by name), an IP filter, endpoints and applications (found or made by
 * name; they join the profile).
 */
export const GatewaySeed = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\\\]+$' }),
  description: Type.Optional(Type.String()),
  lanNetwork: Type.Optional(Type.String()),
  profile: Type.Optional(
    Type.Object({ name: Type.String({ minLength: 1 }), otpRequired: Type.Optional(Type.Boolean()) }),
  ),
  ipFilter: Type.Optional(Type.Array(Type.String())),
  latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  endpoints: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1 }),
        address: Type.String(),
        protocol: Protocol,
        port: Type.Integer({ minimum: 1, maximum: 65535 }),
        description: Type.Optional(Type.String()),
      }),
    ),
  ),
  actions: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1 }),
        protocol: Protocol,
        port: Type.Integer({ minimum: 1, maximum: 65535 }),
        path: Type.Optional(Type.String({ pattern: '^/' })),
        clientOs: Type.Optional(Type.Array(Type.String())),
        description: Type.Optional(Type.String()),
      }),
    ),
  ),
});
export type GatewaySeed = Static<typeof GatewaySeed>;

/** `POST /test-support/tenants` `gateways[]`: a GatewaySeed of the organization `org` (a fixture key). */
export const GatewayFixture = Type.Object({
  ...GatewaySeed.properties,
  org: Type.Optional(Type.String({ description: 'Organization key; default: the first.' })),
});
export type GatewayFixture = Static<typeof GatewayFixture>;

export type SeededGateway = {
  name: string;
  id: string;
  deviceId: string;
  /** The ACTIVE VPN device licence bound to the device: fetch the edge configuration file with it. */
  activationKey: string;
  profileId: string | null;
  endpoints: Record<string, string>;
  actions: Record<string, string>;
};

class FixtureError extends Error {
  readonly statusCode = 400;
}

async function profileNamed(
  tx: Db,
  organizationId: string,
  profile: { name: string; otpRequired?: boolean },
) {
  const [existing] = await tx
    .select({ id: vpnActionProfiles.id })
    .from(vpnActionProfiles)
    .where(
      and(eq(vpnActionProfiles.organizationId, organizationId), eq(vpnActionProfiles.name, profile.name)),
    );
  if (existing) return existing.id;
  const [row] = await tx
    .insert(vpnActionProfiles)
    .values({ organizationId, name: profile.name, otpRequired: profile.otpRequired ?? false })
    .returning({ id: vpnActionProfiles.id });
  if (!row) throw new Error('profile insert returned nothing');
  return row.id;
}

/** Creates the gateway `seed` describes in the organization, in one transaction. */
export async function seedGateway(db: Db, organizationId: string, seed: GatewaySeed): Promise<SeededGateway> {
  const lan = seed.lanNetwork === undefined ? undefined : parseLanNetwork(seed.lanNetwork);
  if (seed.lanNetwork !== undefined && !lan)
    throw new FixtureError(`gateways.lanNetwork '${seed.lanNetwork}' is not a usable IPv4 network`);
  for (const entry of seed.ipFilter ?? []) {
    const problem = ipFilterEntryProblem(entry);
    if (problem) throw new FixtureError(`gateways.ipFilter: ${problem}`);
  }
  for (const endpoint of seed.endpoints ?? []) {
    const problem = endpointAddressProblem(endpoint.address, lan);
    if (problem) throw new FixtureError(`gateways.endpoints '${endpoint.name}': ${problem}`);
  }
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const device = await createDevice(tx, organizationId, seed.name, {
      description: seed.description ?? '',
      latitude: seed.latitude ?? null,
      longitude: seed.longitude ?? null,
    });
    const activationKey = generateActivationKey();
    const activatedAt = new Date();
    await tx.insert(deviceLicenses).values({
      organizationId,
      activationKey,
      vpn: true,
      status: 'ACTIVE',
      deviceId: device.id,
      activatedAt,
      expiresAt: new Date(activatedAt.getTime() + 365 * 24 * 60 * 60 * 1000),
    });
    const profileId = seed.profile ? await profileNamed(tx, organizationId, seed.profile) : null;
    const gateway = await createGatewayForDevice(tx, organizationId, device, {
      lanNetwork: lan?.cidr ?? null,
      profileId,
      ipFilter: seed.ipFilter ?? [],
    });
    const endpoints: Record<string, string> = {};
    for (const endpoint of seed.endpoints ?? []) {
      const [row] = await tx
        .insert(vpnEndpoints)
        .values({
          organizationId,
          gatewayId: gateway.id,
          name: endpoint.name,
          address: endpoint.address,
          protocol: endpoint.protocol,
          port: endpoint.port,
          description: endpoint.description ?? '',
        })
        .returning({ id: vpnEndpoints.id });
      if (row) endpoints[endpoint.name] = row.id;
    }
    const actions: Record<string, string> = {};
    for (const action of seed.actions ?? []) {
      const [existing] = await tx
        .select({ id: vpnActions.id })
        .from(vpnActions)
        .where(and(eq(vpnActions.organizationId, organizationId), eq(vpnActions.name, action.name)));
      const id =
        existing?.id ??
        (
          await tx
            .insert(vpnActions)
            .values({
              organizationId,
              profileId,
              name: action.name,
              protocol: action.protocol,
              port: action.port,
              path: action.path ?? '/',
              clientOs: action.clientOs ?? [],
              description: action.description ?? '',
            })
            .returning({ id: vpnActions.id })
        )[0]?.id;
      if (id) actions[action.name] = id;
    }
    return {
      name: gateway.name,
      id: gateway.id,
      deviceId: device.id,
      activationKey,
      profileId,
      endpoints,
      actions,
    };
  });
}

/**
 * A fresh agent secret for a gateway and the edge configuration that carries it, pointing at `tunnelUrl` — for the
 * demo's simulated plant, which runs its agent next to the server (the previous secret stops working, as with a
 * downloaded file).
 */
export async function issueAgentConfiguration(
  db: Db,
  gatewayId: string,
  tunnelUrl: string,
): Promise<vpn.EdgeConfigFile> {
  const [gateway] = await db.select().from(gateways).where(eq(gateways.id, gatewayId));
  if (!gateway) throw new FixtureError(`gateway ${gatewayId} not found`);
  const [org] = await db.select().from(organizations).where(eq(organizations.id, gateway.organizationId));
  const secret = newSecret();
  await db
    .update(gateways)
    .set({ agentSecretHash: secretHash(secret) })
    .where(eq(gateways.id, gatewayId));
  return {
    version: 1,
    server: new URL(tunnelUrl.replace(/^ws/, 'http')).origin,
    tunnelUrl,
    gatewayId,
    secret,
    name: gateway.name,
    domain: org?.resourceId ?? gateway.organizationId,
    lanNetwork: gateway.lanNetwork,
    issuedAt: new Date().toISOString(),
  };
}
