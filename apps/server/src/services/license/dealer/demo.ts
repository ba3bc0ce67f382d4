import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { organizations } from '../../../db/schema.ts';
import { addDefaultRoles, createOrganization } from '../../core/organizations/provisioning.ts';
import { InvoiceProvider } from '../billing/invoice-provider.ts';
import type { PaymentProvider } from '../billing/payment-provider.ts';
import * as lifecycle from '../licenses/lifecycle.ts';
import * as productStore from '../products/store.ts';

/**
 * The demo's dealer area: the organization becomes a dealer selling a device licence (one device, 365 days, 49.00
 * EUR) and a user pack (10 users), with one client organization holding an ACTIVE pack of 5 device licences.
 */
export async function seedDealerDemo(
  db: Db,
  dealer: { id: string; realm: string; resourceId: string },
  now: Date,
  payments: PaymentProvider = new InvoiceProvider(),
): Promise<{ clientId: string; licenseId: string }> {
  return lifecycle.inTransaction(db, async (tx) => {
    await tx.update(organizations).set({ dealer: true }).where(eq(organizations.id, dealer.id));
    const device = await productStore.insertProduct(
      tx,
      {
        organizationId: dealer.id,
        code: 'DEVICE-1Y',
        name: 'Device licence',
        description: 'One device connected for a year',
        resourceType: 'devices',
      },
      { quantity: 1, termDays: 365, priceMinor: 4900, currency: 'EUR', vpn: false },
    );
    await productStore.insertProduct(
      tx,
      {
        organizationId: dealer.id,
        code: 'USERS-10',
        name: 'User pack',
        description: 'Ten users for a year',
        resourceType: 'users',
      },
      { quantity: 10, termDays: 365, priceMinor: 9900, currency: 'EUR', vpn: false },
    );
    const client = await createOrganization(tx, {
      realm: dealer.realm,
      name: 'Demo client Rotterdam',
      resourceId: `${dealer.resourceId}-client-rotterdam`,
      parentId: dealer.id,
    });
    await addDefaultRoles(tx, client.id);
    const issued = await lifecycle.issue(
      tx,
      payments,
      {
        holder: client.id,
        issuer: dealer.id,
        product: device,
        quantity: 5,
        autorenew: false,
        activate: true,
      },
      now,
    );
    return { clientId: client.id, licenseId: issued.id };
  });
}
