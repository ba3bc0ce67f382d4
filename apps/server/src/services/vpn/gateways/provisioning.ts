import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { gatewayLogs, gateways } from '../../../db/schema.ts';
import type { GatewayRow } from './lookup.ts';

/**
 * A gateway name usable in paths: the device label without '/' and '\' (they separate path segments), at most 100
 * characters, never blank.
 */
export function gatewayNameOf(label: string): string {
  const name = label.replace(/[/\\]/g, '-').trim().slice(0, 100);
  return name || 'gateway';
}

/**
 * Creates the gateway of a device activated with a VPN device licence, inside the activation's transaction `tx`.
 * Its name is the device label (made path-safe); a name another gateway of the organization has gets a suffix
 * (" (2)", " (3)"...), since a gateway keeps its name when its device is relabelled.
 */
export async function createGatewayForDevice(
  tx: Db,
  organizationId: string,
  device: { id: string; label: string; description?: string },
  extra: { lanNetwork?: string | null; profileId?: string | null; ipFilter?: string[] } = {},
): Promise<GatewayRow> {
  const base = gatewayNameOf(device.label);
  let name = base;
  for (let attempt = 2; await nameTaken(tx, organizationId, name); attempt += 1) {
    const suffix = ` (${attempt})`;
    name = `${base.slice(0, 100 - suffix.length)}${suffix}`;
  }
  const [row] = await tx
    .insert(gateways)
    .values({
      organizationId,
      deviceId: device.id,
      name,
      description: device.description ?? '',
      lanNetwork: extra.lanNetwork ?? null,
      profileId: extra.profileId ?? null,
      ipFilter: extra.ipFilter ?? [],
    })
    .returning();
  if (!row) throw new Error('gateway insert returned nothing');
  await tx.insert(gatewayLogs).values({
    organizationId,
    gatewayId: row.id,
    message: 'gateway created',
    detail: { deviceId: device.id, deviceLabel: device.label },
  });
  return row;
}

async function nameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  const [row] = await db
    .select({ id: gateways.id })
    .from(gateways)
    .where(and(eq(gateways.organizationId, organizationId), eq(gateways.name, name)));
  return row !== undefined;
}
