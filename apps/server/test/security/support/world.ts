import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { emptyDocument } from '@edgeport/dashboard-schema';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../src/db/index.ts';
import {
  alarmEvents,
  alarmRules,
  alarms,
  apiKeys,
  applicationPermissions,
  apps,
  auditLog,
  dashboardAssets,
  deviceGroupMembers,
  deviceGroups,
  deviceLicenses,
  deviceSecurityPolicies,
  devices,
  galleryAssets,
  groupMembers,
  groupRoles,
  importTokens,
  invoices,
  licenses,
  models,
  modelVersions,
  notificationDeliveries,
  notificationRules,
  oidcPayloads,
  organizationApps,
  organizationInvitations,
  organizations,
  preauthorizedTransactions,
  presetJobs,
  presets,
  products,
  productVersions,
  roles,
  securityPolicies,
  serviceClients,
  themes,
  transactionExecutions,
  triggerRules,
  userGroups,
  userPreferences,
  userSecurityPolicies,
  vpnApplicationPreferences,
} from '../../../src/db/schema.ts';
import { addMember, createUser } from '../../../src/services/core/organizations/provisioning.ts';
import { insertDashboard } from '../../../src/services/dashboard/dashboards/store.ts';
import { generateActivationKey, generateLicenseCode } from '../../../src/services/license/keys.ts';
import { seedGateway } from '../../../src/services/vpn/fixtures.ts';
import { PASSWORD } from '../../support/fixtures.ts';

/** The kinds of object a path parameter, query parameter or body field can name. */
export type Kind =
  | 'org'
  | 'user'
  | 'role'
  | 'group'
  | 'policy'
  | 'device'
  | 'apiKey'
  | 'client'
  | 'preference'
  | 'session'
  | 'credential'
  | 'importToken'
  | 'statusIssue'
  | 'appPermission'
  | 'deviceGroup'
  | 'deviceLicense'
  | 'model'
  | 'preset'
  | 'presetJob'
  | 'alarmRule'
  | 'alarm'
  | 'notificationRule'
  | 'delivery'
  | 'trigger'
  | 'transaction'
  | 'invoice'
  | 'orgApp'
  | 'product'
  | 'license'
  | 'dealerClient'
  | 'gateway'
  | 'endpoint'
  | 'actionProfile'
  | 'action'
  | 'appPreference'
  | 'dashboard'
  | 'flow'
  | 'widget'
  | 'dashboardAsset'
  | 'galleryAsset'
  | 'invitation';

type Named = { id: string; name: string };

/** One organization's objects of every kind, so that every id-taking endpoint has an id of it to be tried with. */
export type Tenant = {
  label: string;
  org: { id: string; resourceId: string; name: string; realm: string };
  admin: { id: string; email: string };
  /** A member (not the admin) holding the tenant's role directly and through its group, with policies assigned. */
  user: { id: string; email: string };
  role: Named;
  group: Named;
  policy: Named;
  childPolicy: Named;
  /** A policy with no parent, children or assignments: what `parentId` fields point at. */
  sparePolicy: Named;
  device: { id: string; label: string; alias: string };
  /** A device group holding the tenant's device. */
  deviceGroup: Named;
  /** An AVAILABLE device licence and its activation key. */
  deviceLicense: { id: string; key: string };
  /** A model (one version), a preset on it bound to the tenant's device, and an asynchronous preset job. */
  model: Named;
  preset: Named;
  presetJob: { id: string };
  /** An alarm rule on the tenant's device. */
  alarmRule: Named;
  /** An open alarm of the alarm rule on the tenant's device (ack and reset REQUIRED), with its RAISED step. */
  alarm: Named;
  /** A notification rule (e-mail to the tenant's member only: deliveries never leave the machine). */
  notificationRule: Named;
  /** A FAILED notification delivery (an e-mail: a resend goes to the outbox, never out). */
  delivery: { id: string };
  /** A trigger rule: a value of the tenant's device writes a set-point back to it. */
  trigger: Named;
  /** An ACTIVE preauthorized transaction with one PENDING execution (n = 1) and its OPEN invoice. */
  transaction: { id: string; description: string };
  invoice: { id: string };
  /** A store app installed in the organization on its free plan (each tenant its own catalogue app). */
  orgApp: { id: string; plan: string };
  /** The organization is a dealer selling this devices product (one version). */
  product: Named;
  /** An ACTIVE licence of the product, held by the organization and issued by it (so both licence lists have it). */
  license: { id: string; code: string };
  /** A direct sub-organization (a dealer's client) when the organization has one, else an id of nothing. */
  dealerClient: { id: string };
  apiKey: Named & { prefix: string };
  client: Named;
  /**
   * Remote access: a gateway (its own device, an ACTIVE VPN licence whose key fetches the edge configuration file,
   * LAN 192.168.50.0/24), one endpoint on it, an application profile (no OTP) and an application of it, and an
   * application shortcut of the admin (shortcuts are the signed-in person's own).
   */
  gateway: Named & { activationKey: string; deviceId: string };
  /** A second gateway (same LAN), what `{target}` of a clone names. */
  targetGateway: Named;
  endpoint: Named;
  actionProfile: Named;
  action: Named;
  appPreference: { id: string; label: string };
  /** A dashboard, a flow and a saved widget of the admin, each with version 1 (an empty document). */
  dashboard: Named;
  flow: Named;
  widget: Named;
  /** An image asset of the dashboard and a gallery asset; their files are written by `buildWorld` (blob store). */
  dashboardAsset: { name: string; blobKey: string };
  galleryAsset: { name: string; blobKey: string };
  /**
   * A pending invitation of the organization to an existing account of the realm (`invitee`, a member of no
   * organization): what the organization lists and revokes, and only the invitee may accept or decline.
   */
  invitation: { id: string; invitee: string };
  /** A preference of the admin (preferences are always the signed-in person's own). */
  preference: { id: string; serviceName: string; property: string; value1: string };
  appPermission: Named;
  /** The sign-in session of the admin (its oidc `uid`), once the admin has signed in. */
  sessionId: string | undefined;
  /** A plaintext import token of the organization, when the API to create one exists. */
  importToken: string | undefined;
  brandName: string;
  auditMarker: string;
};

/** The bytes of the seeded assets' files: a PNG signature and a few bytes. */
export const SEED_PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The LAN of every tenant's gateway; endpoint addresses the generated requests use lie inside it. */
export const VPN_LAN = '192.168.50.0/24';

/**
 * Inserts one object of every kind into the organization (directly with Drizzle, so the harness does not depend on
 * the endpoints under test). Every name carries a random tag so that it can be recognised in an answer.
 */
export async function seedTenantObjects(
  db: Db,
  input: {
    label: string;
    org: { id: string; resourceId: string; name: string; realm: string };
    admin: { id: string; email: string };
  },
): Promise<Tenant> {
  const tag = `${input.label}${randomBytes(4).toString('hex')}`;
  const { org } = input;
  const user = await createUser(db, {
    realm: org.realm,
    email: `member-${tag}@example.test`,
    password: PASSWORD,
    firstName: `first-${tag}`,
    lastName: `last-${tag}`,
  });
  const [appPermission] = await db
    .insert(applicationPermissions)
    .values({
      id: `sec.perm.${tag}`,
      name: `sec-perm-${tag}`,
      application: `sec-app-${tag}`,
      description: `only roles of ${tag} grant it`,
    })
    .returning();
  const [device] = await db
    .insert(devices)
    .values({
      organizationId: org.id,
      label: `sec-device-${tag}`,
      serialNumber: `SN-${tag}`,
      alias: `sec-alias-${tag}`,
    })
    .returning();
  const [role] = await db
    .insert(roles)
    .values({
      organizationId: org.id,
      name: `sec-role-${tag}`,
      description: `role of ${tag}`,
      permissions: [
        { rsname: 'portal', scopes: ['ACCESS'] },
        { rsname: 'devices', scopes: ['READ'] },
      ],
      modelPathPermissions: [{ path: `/sec/${tag}`, read: true, write: false }],
      applicationPermissionIds: appPermission ? [appPermission.id] : [],
      deviceAccess: { deviceGroupIds: [], deviceIds: device ? [device.id] : [], vpn: true },
      owners: [user.id],
    })
    .returning();
  if (!appPermission || !device || !role) throw new Error('seeding returned nothing');
  await addMember(db, org.id, user.id, [role.id]);
  const [group] = await db
    .insert(userGroups)
    .values({ organizationId: org.id, name: `sec-group-${tag}`, description: `group of ${tag}` })
    .returning();
  const [policy] = await db
    .insert(securityPolicies)
    .values({
      organizationId: org.id,
      name: `sec-policy-${tag}`,
      description: `policy of ${tag}`,
      rules: { allowedIpRanges: ['10.0.0.0/8'], requireTotp: false, maxSessionMinutes: 60 },
    })
    .returning();
  if (!group || !policy) throw new Error('seeding returned nothing');
  const [childPolicy] = await db
    .insert(securityPolicies)
    .values({ organizationId: org.id, parentId: policy.id, name: `sec-child-policy-${tag}` })
    .returning();
  const [sparePolicy] = await db
    .insert(securityPolicies)
    .values({ organizationId: org.id, name: `sec-spare-policy-${tag}` })
    .returning();
  await db.insert(groupMembers).values({ groupId: group.id, userId: user.id, roleId: role.id });
  await db.insert(groupRoles).values({ groupId: group.id, roleId: role.id });
  await db.insert(userSecurityPolicies).values({ userId: user.id, policyId: policy.id });
  await db.insert(deviceSecurityPolicies).values({ deviceId: device.id, policyId: policy.id });
  const [deviceGroup] = await db
    .insert(deviceGroups)
    .values({
      organizationId: org.id,
      name: `sec-device-group-${tag}`,
      description: `device group of ${tag}`,
    })
    .returning();
  const [deviceLicense] = await db
    .insert(deviceLicenses)
    .values({ organizationId: org.id, activationKey: generateActivationKey() })
    .returning();
  if (!deviceGroup || !deviceLicense) throw new Error('seeding returned nothing');
  await db.insert(deviceGroupMembers).values({ groupId: deviceGroup.id, deviceId: device.id });
  const [model] = await db
    .insert(models)
    .values({ organizationId: org.id, name: `sec-model-${tag}`, description: `model of ${tag}` })
    .returning();
  if (!model) throw new Error('seeding returned nothing');
  await db.insert(modelVersions).values({
    modelId: model.id,
    version: 1,
    // Writable, so a set-point to it is a valid request in the positive control.
    paths: [{ path: '/sec/path', type: 'number', writable: true }],
  });
  const [preset] = await db
    .insert(presets)
    .values({
      organizationId: org.id,
      name: `sec-preset-${tag}`,
      modelId: model.id,
      modelVersion: 1,
      mappings: [{ tag: `sec-tag-${tag}`, path: '/sec/path' }],
    })
    .returning();
  if (!preset) throw new Error('seeding returned nothing');
  await db.update(devices).set({ presetId: preset.id }).where(eq(devices.id, device.id));
  const [presetJob] = await db
    .insert(presetJobs)
    .values({ organizationId: org.id, status: 'DONE', progress: 100, presetId: preset.id })
    .returning();
  if (!presetJob) throw new Error('seeding returned nothing');
  const [alarmRule] = await db
    .insert(alarmRules)
    .values({
      organizationId: org.id,
      name: `sec-alarm-rule-${tag}`,
      deviceId: device.id,
      condition: { kind: 'threshold', path: '/sec/path', operator: '>', value: 1 },
      severity: 'MAJOR',
    })
    .returning();
  const [notificationRule] = await db
    .insert(notificationRules)
    .values({
      organizationId: org.id,
      name: `sec-notification-${tag}`,
      source: { alarmEvents: ['RAISED'], severities: [], alarmRuleIds: [] },
      recipients: { userIds: [user.id], groupIds: [], emails: [], webhooks: [] },
    })
    .returning();
  if (!alarmRule || !notificationRule) throw new Error('seeding returned nothing');
  const [alarm] = await db
    .insert(alarms)
    .values({
      organizationId: org.id,
      ruleId: alarmRule.id,
      deviceId: device.id,
      name: `sec-alarm-${tag}`,
      path: '/sec/path',
      severity: 'MAJOR',
      ack: 'REQUIRED',
      reset: 'REQUIRED',
      message: `sec-alarm-message-${tag}`,
      value: 2,
    })
    .returning();
  if (!alarm) throw new Error('seeding returned nothing');
  await db
    .insert(alarmEvents)
    .values({ alarmId: alarm.id, organizationId: org.id, kind: 'RAISED', value: 2 });
  const [delivery] = await db
    .insert(notificationDeliveries)
    .values({
      organizationId: org.id,
      notificationId: notificationRule.id,
      notificationName: notificationRule.name,
      channel: 'email',
      target: user.email,
      subject: `sec-subject-${tag}`,
      body: `sec-body-${tag}`,
      payload: {},
      status: 'FAILED',
      attempts: 5,
      lastError: 'seeded failure',
    })
    .returning();
  if (!delivery) throw new Error('seeding returned nothing');
  const [trigger] = await db
    .insert(triggerRules)
    .values({
      organizationId: org.id,
      name: `sec-trigger-${tag}`,
      condition: { kind: 'data', deviceId: device.id, path: '/sec/path', operator: '>', value: 1 },
      action: { kind: 'write', deviceId: device.id, path: '/sec/path', value: 0 },
    })
    .returning();
  if (!trigger) throw new Error('seeding returned nothing');
  const [transaction] = await db
    .insert(preauthorizedTransactions)
    .values({
      organizationId: org.id,
      description: `sec-transaction-${tag}`,
      purpose: `app:sec-${tag}`,
      currency: 'EUR',
      maxAmountMinor: 1000,
      maxExecutions: 5,
      result: 'AUTHORIZED',
      status: 'ACTIVE',
    })
    .returning();
  if (!transaction) throw new Error('seeding returned nothing');
  const [invoice] = await db
    .insert(invoices)
    .values({
      organizationId: org.id,
      description: `sec-invoice-${tag}`,
      amountMinor: 500,
      currency: 'EUR',
      provider: 'invoice',
      reference: `transaction:${transaction.id}/1`,
    })
    .returning();
  if (!invoice) throw new Error('seeding returned nothing');
  const orgAppId = `sec-app-${tag}`;
  await db.insert(apps).values({
    id: orgAppId,
    name: orgAppId,
    entryUrl: `https://${orgAppId}.example.com/`,
    plans: [{ id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'MONTH' }],
  });
  await db
    .insert(organizationApps)
    .values({ organizationId: org.id, appId: orgAppId, plan: 'free', version: '1.0.0', status: 'ACTIVE' });
  await db.insert(transactionExecutions).values({
    transactionId: transaction.id,
    n: 1,
    amountMinor: 500,
    invoiceId: invoice.id,
    status: 'PENDING',
  });
  await db.update(organizations).set({ dealer: true }).where(eq(organizations.id, org.id));
  const [product] = await db
    .insert(products)
    .values({
      organizationId: org.id,
      code: `sec-product-${tag}`,
      name: `sec-product-${tag}`,
      resourceType: 'devices',
    })
    .returning();
  if (!product) throw new Error('seeding returned nothing');
  await db.insert(productVersions).values({
    productId: product.id,
    version: 1,
    quantity: 1,
    termDays: 365,
    priceMinor: 100,
    currency: 'EUR',
  });
  const [license] = await db
    .insert(licenses)
    .values({
      organizationId: org.id,
      issuerOrganizationId: org.id,
      productId: product.id,
      productVersion: 1,
      licenseCode: generateLicenseCode(),
      status: 'ACTIVE',
      activatedAt: new Date(),
      expiresAt: new Date(Date.now() + 365 * 24 * 3600 * 1000),
    })
    .returning();
  if (!license) throw new Error('seeding returned nothing');
  const [child] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.parentId, org.id))
    .limit(1);
  const prefix = `ep_${randomBytes(3).toString('hex')}`;
  const [apiKey] = await db
    .insert(apiKeys)
    .values({
      userId: user.id,
      organizationId: org.id,
      name: `sec-key-${tag}`,
      prefix,
      secretHash: sha256(`ep_${randomBytes(32).toString('base64url')}`),
    })
    .returning();
  const [client] = await db
    .insert(serviceClients)
    .values({
      organizationId: org.id,
      name: `sec-client-${tag}`,
      secretHash: sha256(randomBytes(32).toString('hex')),
      secretCreatedAt: new Date(),
    })
    .returning();
  await db.insert(importTokens).values({
    tokenHash: sha256(randomBytes(32).toString('base64url')),
    organizationId: org.id,
    createdBy: input.admin.id,
    expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
  });
  const invitee = await createUser(db, {
    realm: org.realm,
    email: `invitee-${tag}@example.test`,
    password: PASSWORD,
  });
  const [invitation] = await db
    .insert(organizationInvitations)
    .values({ organizationId: org.id, userId: invitee.id, invitedBy: input.admin.id, roleIds: [role.id] })
    .returning();
  if (!invitation) throw new Error('seeding returned nothing');
  const [preference] = await db
    .insert(userPreferences)
    .values({ userId: input.admin.id, serviceName: 'portal', property: `prop${tag}`, value1: `value-${tag}` })
    .returning();
  const brandName = `sec-brand-${tag}`;
  await db
    .insert(themes)
    .values({ organizationId: org.id, brandName, primaryColor: '#123456' })
    .onConflictDoNothing();
  const auditMarker = `sec-audit-${tag}`;
  await db.insert(auditLog).values({
    realm: org.realm,
    organizationId: org.id,
    actorId: input.admin.id,
    actorEmail: input.admin.email,
    action: 'roles.update',
    resourceType: 'roles',
    resourceId: role.id,
    resourceName: auditMarker,
    detail: { marker: auditMarker },
  });
  if (!apiKey || !client || !childPolicy || !sparePolicy || !preference)
    throw new Error('seeding returned nothing');
  const gateway = await seedGateway(db, org.id, {
    name: `sec-gateway-${tag}`,
    lanNetwork: VPN_LAN,
    profile: { name: `sec-profile-${tag}`, otpRequired: false },
    endpoints: [{ name: `sec-endpoint-${tag}`, address: '192.168.50.10', protocol: 'HTTP', port: 80 }],
    actions: [{ name: `sec-action-${tag}`, protocol: 'HTTP', port: 80, path: '/' }],
  });
  const targetGateway = await seedGateway(db, org.id, { name: `sec-target-${tag}`, lanNetwork: VPN_LAN });
  const endpointName = `sec-endpoint-${tag}`;
  const actionName = `sec-action-${tag}`;
  const [appPreference] = await db
    .insert(vpnApplicationPreferences)
    .values({
      organizationId: org.id,
      userId: input.admin.id,
      gatewayName: gateway.name,
      endpointName,
      actionName,
      clientOs: 'Win',
      label: `sec-shortcut-${tag}`,
    })
    .returning();
  const boards: Record<'dashboard' | 'flow' | 'widget', Named> = {
    dashboard: { id: '', name: '' },
    flow: { id: '', name: '' },
    widget: { id: '', name: '' },
  };
  for (const kind of ['dashboard', 'flow', 'widget'] as const) {
    const row = await insertDashboard(db, {
      organizationId: org.id,
      kind,
      name: `sec-${kind}-${tag}`,
      description: `${kind} of ${tag}`,
      ownerId: input.admin.id,
      document: emptyDocument(kind) as unknown as Record<string, unknown>,
    });
    boards[kind] = { id: row.id, name: row.name };
  }
  const dashboardAsset = {
    name: `sec-asset-${tag}.png`,
    blobKey: `dashboard-assets/${org.id}/${randomUUID()}`,
  };
  await db.insert(dashboardAssets).values({
    organizationId: org.id,
    dashboardId: boards.dashboard.id,
    name: dashboardAsset.name,
    contentType: 'image/png',
    size: SEED_PNG.length,
    blobKey: dashboardAsset.blobKey,
  });
  const galleryAsset = { name: `sec-gallery-${tag}`, blobKey: `gallery/${org.id}/${randomUUID()}` };
  await db.insert(galleryAssets).values({
    organizationId: org.id,
    name: galleryAsset.name,
    manifest: { name: `sec-gallery-${tag}`, widgets: [] },
    contentType: 'image/png',
    size: SEED_PNG.length,
    blobKey: galleryAsset.blobKey,
    uploadedBy: input.admin.id,
  });
  const endpointId = gateway.endpoints[endpointName];
  const actionId = gateway.actions[actionName];
  if (!appPreference || !endpointId || !actionId || !gateway.profileId)
    throw new Error('seeding returned nothing');
  return {
    label: input.label,
    org,
    admin: input.admin,
    user: { id: user.id, email: user.email },
    role: { id: role.id, name: role.name },
    group: { id: group.id, name: group.name },
    policy: { id: policy.id, name: policy.name },
    childPolicy: { id: childPolicy.id, name: childPolicy.name },
    sparePolicy: { id: sparePolicy.id, name: sparePolicy.name },
    device: { id: device.id, label: device.label, alias: device.alias ?? '' },
    deviceGroup: { id: deviceGroup.id, name: deviceGroup.name },
    deviceLicense: { id: deviceLicense.id, key: deviceLicense.activationKey },
    model: { id: model.id, name: model.name },
    preset: { id: preset.id, name: preset.name },
    presetJob: { id: presetJob.id },
    alarmRule: { id: alarmRule.id, name: alarmRule.name },
    alarm: { id: alarm.id, name: alarm.name },
    notificationRule: { id: notificationRule.id, name: notificationRule.name },
    delivery: { id: delivery.id },
    trigger: { id: trigger.id, name: trigger.name },
    transaction: { id: transaction.id, description: transaction.description },
    invoice: { id: invoice.id },
    orgApp: { id: orgAppId, plan: 'free' },
    product: { id: product.id, name: product.name },
    license: { id: license.id, code: license.licenseCode },
    dealerClient: { id: child?.id ?? randomUUID() },
    apiKey: { id: apiKey.id, name: apiKey.name, prefix: apiKey.prefix },
    client: { id: client.id, name: client.name },
    gateway: {
      id: gateway.id,
      name: gateway.name,
      activationKey: gateway.activationKey,
      deviceId: gateway.deviceId,
    },
    targetGateway: { id: targetGateway.id, name: targetGateway.name },
    endpoint: { id: endpointId, name: endpointName },
    actionProfile: { id: gateway.profileId, name: `sec-profile-${tag}` },
    action: { id: actionId, name: actionName },
    appPreference: { id: appPreference.id, label: appPreference.label },
    dashboard: boards.dashboard,
    dashboardAsset,
    galleryAsset,
    flow: boards.flow,
    widget: boards.widget,
    preference: {
      id: preference.id,
      serviceName: preference.serviceName,
      property: preference.property,
      value1: preference.value1,
    },
    appPermission: { id: appPermission.id, name: appPermission.name },
    invitation: { id: invitation.id, invitee: invitee.email },
    sessionId: undefined,
    importToken: undefined,
    brandName,
    auditMarker,
  };
}

/** The uid of a live sign-in session of the account (what `DELETE /account/sessions/{id}` takes). */
export async function sessionOf(db: Db, accountId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ uid: oidcPayloads.uid, id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`));
  return row ? (row.uid ?? row.id) : undefined;
}

/**
 * Strings that belong to the tenant only: ids and tagged names. If one of them shows up in an answer to another
 * tenant (and the caller did not send it), data leaked. (Application permissions are a shared catalogue: left out.)
 */
export function markersOf(tenant: Tenant): string[] {
  return [
    tenant.org.id,
    tenant.admin.id,
    tenant.admin.email,
    tenant.user.id,
    tenant.user.email,
    tenant.role.id,
    tenant.role.name,
    tenant.group.id,
    tenant.group.name,
    tenant.policy.id,
    tenant.policy.name,
    tenant.childPolicy.id,
    tenant.childPolicy.name,
    tenant.sparePolicy.id,
    tenant.sparePolicy.name,
    tenant.device.id,
    tenant.device.label,
    tenant.device.alias,
    tenant.deviceGroup.id,
    tenant.deviceGroup.name,
    tenant.deviceLicense.id,
    tenant.deviceLicense.key,
    tenant.model.id,
    tenant.model.name,
    tenant.preset.id,
    tenant.preset.name,
    tenant.presetJob.id,
    tenant.alarmRule.id,
    tenant.alarmRule.name,
    tenant.alarm.id,
    tenant.alarm.name,
    tenant.notificationRule.id,
    tenant.notificationRule.name,
    tenant.delivery.id,
    tenant.trigger.id,
    tenant.trigger.name,
    tenant.transaction.id,
    tenant.transaction.description,
    tenant.invoice.id,
    tenant.product.id,
    tenant.product.name,
    tenant.license.id,
    tenant.license.code,
    tenant.apiKey.id,
    tenant.apiKey.name,
    tenant.apiKey.prefix,
    tenant.client.id,
    tenant.client.name,
    tenant.preference.id,
    tenant.preference.property,
    tenant.preference.value1,
    tenant.brandName,
    tenant.auditMarker,
    tenant.gateway.id,
    tenant.gateway.name,
    tenant.gateway.activationKey,
    tenant.gateway.deviceId,
    tenant.targetGateway.id,
    tenant.targetGateway.name,
    tenant.endpoint.id,
    tenant.endpoint.name,
    tenant.actionProfile.id,
    tenant.actionProfile.name,
    tenant.action.id,
    tenant.action.name,
    tenant.appPreference.id,
    tenant.appPreference.label,
    tenant.dashboard.id,
    tenant.dashboard.name,
    tenant.flow.id,
    tenant.flow.name,
    tenant.widget.id,
    tenant.widget.name,
    tenant.dashboardAsset.name,
    tenant.galleryAsset.name,
    tenant.invitation.id,
    tenant.invitation.invitee,
    ...(tenant.sessionId ? [tenant.sessionId] : []),
  ];
}

/** Which kind an object-naming path segment stands for (`/roles/{id}` -> role). */
const SEGMENT_KINDS: Record<string, Kind> = {
  organizations: 'org',
  apps: 'orgApp',
  users: 'user',
  members: 'user',
  username: 'user',
  roles: 'role',
  userGroups: 'group',
  groups: 'group',
  securityPolicies: 'policy',
  devices: 'device',
  label: 'device',
  apiKeys: 'apiKey',
  clients: 'client',
  userPreferences: 'preference',
  sessions: 'session',
  credentials: 'credential',
  importToken: 'importToken',
  issues: 'statusIssue',
  applicationpermissions: 'appPermission',
  deviceGroups: 'deviceGroup',
  deviceLicenses: 'deviceLicense',
  devicesByName: 'device',
  models: 'model',
  presets: 'preset',
  async: 'presetJob',
  mappings: 'preset',
  notifications: 'notificationRule',
  deliveries: 'delivery',
  triggers: 'trigger',
  alarms: 'alarm',
  rules: 'alarmRule',
  transactions: 'transaction',
  // The spec's singular paths (/transaction/{id}, /transaction/{id}/execution/{n}).
  transaction: 'transaction',
  invoices: 'invoice',
  products: 'product',
  licenses: 'license',
  issuedLicenses: 'license',
  dashboards: 'dashboard',
  flows: 'flow',
  widgets: 'widget',
  invitations: 'invitation',
};

/** Which kind a parameter or field name stands for; undefined when it names none. */
export function kindOfName(name: string, path: string): Kind | undefined {
  const n = name.toLowerCase();
  if (path.startsWith('/svc/vpn2/')) {
    // The client system an application is opened from (Win, Linux...) names no object.
    if (n === 'clientos') return undefined;
    const vpnKind = vpnKindOfName(n, path);
    if (vpnKind) return vpnKind;
  }
  if (n === 'dashboardid') return 'dashboard';
  // The dashboard service's PATCH names the dashboard (flow, widget) by `id` in the body.
  if (n === 'id' && path.startsWith('/svc/dashboard/api/v1/')) {
    const collection = path.split('/')[5];
    if (collection === 'dashboards' || collection === 'flows' || collection === 'widgets')
      return SEGMENT_KINDS[collection];
  }
  if (n === 'parentid' || n === 'parent') return path.includes('/securityPolicies') ? 'policy' : 'org';
  if (n.includes('applicationpermission')) return 'appPermission';
  if (n.includes('importtoken') || n === 'token') return 'importToken';
  if (n.includes('polic')) return 'policy';
  if (n === 'activationkey') return 'deviceLicense';
  if (n === 'alias') return 'device';
  if (n === 'modelid') return 'model';
  if (n === 'presetid') return 'preset';
  if (n === 'plan') return 'orgApp';
  if (n.startsWith('alarmrule')) return 'alarmRule';
  if (n === 'ruleids') return 'alarmRule';
  if (path.startsWith('/svc/alarms/') && n === 'ruleid') return 'alarmRule';
  if (path.startsWith('/svc/alarms/') && n === 'ids') return 'alarm';
  if (n === 'notificationid' || n === 'notificationids') return 'notificationRule';
  if (n.includes('devicegroup')) return undefined;
  if (n.includes('device') || n === 'dev') return 'device';
  if (n.includes('group')) return 'group';
  if (n.includes('role')) return 'role';
  if (path.startsWith('/svc/license/') && (n === 'client' || n === 'clientid')) return 'dealerClient';
  if (n === 'productid') return 'product';
  if (n === 'licensecode') return 'license';
  if (n.includes('client')) return 'client';
  if (n.includes('apikey')) return 'apiKey';
  if (['org', 'orgid', 'organization', 'organizationid', 'organizationids'].includes(n)) return 'org';
  if (n.includes('user') || n === 'owners' || n === 'owner' || n === 'members' || n === 'member')
    return 'user';
  if (n.includes('preference')) return 'preference';
  if (n.includes('session')) return 'session';
  return undefined;
}

/**
 * Remote-access names (`/svc/vpn2`): organizations as {domain}/{orgResourceId}, gateways, endpoints and applications
 * by name, profiles and applications by id; `{x}` of the shortcut list is a gateway name (or `all`).
 */
function vpnKindOfName(n: string, path: string): Kind | undefined {
  if (n === 'domain' || n === 'orgresourceid') return 'org';
  if (['gateway', 'gatewayname', 'target', 'x'].includes(n)) return 'gateway';
  if (n === 'endpoint' || n === 'endpointname') return 'endpoint';
  if (n === 'action' || n === 'actionname' || n === 'actionid') return 'action';
  if (n === 'profileid') return 'actionProfile';
  if (n === 'id' && path.includes('/actionProfiles')) return 'actionProfile';
  if (n === 'id' && path.includes('/actions')) return 'action';
  if (n === 'id' && path.includes('/preferences/applications/')) return 'appPreference';
  return undefined;
}

/** The kind a path parameter names: by its own name, else by the segment before it. */
export function kindOfPathParam(path: string, param: string, segment: string | undefined): Kind | undefined {
  if (path.startsWith('/svc/vpn2/')) {
    const vpnKind = vpnKindOfName(param.toLowerCase(), path);
    if (vpnKind) return vpnKind;
  }
  const generic = ['id', 'ids', 'name', 'label', 'key'];
  if (path.includes('/userPreferences/users/')) {
    if (param === 'user') return 'user';
    if (param === 'service' || param === 'prop') return 'preference';
  }
  if (path.includes('/models/name/') && param === 'name') return 'model';
  // An upload URL may be asked for any new asset name: there `{name}` is free-form, elsewhere it names an asset.
  if (
    path.startsWith('/svc/dashboard/') &&
    param === 'name' &&
    segment === 'assets' &&
    !path.endsWith('/upload')
  )
    return 'dashboardAsset';
  if (path.startsWith('/svc/dashboard/') && param === 'a' && segment === 'assets') return 'galleryAsset';
  const byName = generic.includes(param) ? undefined : kindOfName(param, path);
  return byName ?? (segment ? SEGMENT_KINDS[segment] : undefined);
}

/** How a path parameter names its object: by id, or by e-mail / label / preference key. */
export function pathValue(
  tenant: Tenant,
  kind: Kind | undefined,
  path: string,
  param: string,
  segment: string | undefined,
): string {
  const byName = param === 'name' || param === 'username' || segment === 'username';
  switch (kind) {
    case 'org':
      return tenant.org.id;
    case 'user':
      // Preferences are the signed-in person's own: the admin's (the tenant's preference belongs to the admin).
      if (path.includes('/userPreferences/users/')) return tenant.admin.email;
      return byName ? tenant.user.email : tenant.user.id;
    case 'role':
      return tenant.role.id;
    case 'group':
      return tenant.group.id;
    case 'policy':
      return tenant.policy.id;
    case 'device':
      return param === 'label' || segment === 'label' || segment === 'devicesByName'
        ? tenant.device.label
        : tenant.device.id;
    case 'apiKey':
      return tenant.apiKey.id;
    case 'client':
      return tenant.client.id;
    case 'preference':
      if (param === 'service') return tenant.preference.serviceName;
      if (param === 'prop') return tenant.preference.property;
      return tenant.preference.id;
    case 'session':
      return tenant.sessionId ?? randomUUID();
    case 'credential':
      return 'otp';
    case 'importToken':
      return tenant.importToken ?? randomBytes(16).toString('hex');
    case 'appPermission':
      return tenant.appPermission.id;
    case 'deviceGroup':
      return tenant.deviceGroup.id;
    case 'deviceLicense':
      return tenant.deviceLicense.id;
    case 'model':
      return byName ? tenant.model.name : tenant.model.id;
    case 'preset':
      return tenant.preset.id;
    case 'presetJob':
      return tenant.presetJob.id;
    case 'alarmRule':
      return tenant.alarmRule.id;
    case 'alarm':
      return tenant.alarm.id;
    case 'notificationRule':
      return tenant.notificationRule.id;
    case 'delivery':
      return tenant.delivery.id;
    case 'trigger':
      return tenant.trigger.id;
    case 'transaction':
      return tenant.transaction.id;
    case 'invoice':
      return tenant.invoice.id;
    case 'orgApp':
      return param === 'plan' ? tenant.orgApp.plan : tenant.orgApp.id;
    case 'product':
      return tenant.product.id;
    case 'license':
      return param === 'licenseCode' ? tenant.license.code : tenant.license.id;
    case 'dealerClient':
      return tenant.dealerClient.id;
    case 'gateway':
      return param === 'target' ? tenant.targetGateway.name : tenant.gateway.name;
    case 'endpoint':
      return tenant.endpoint.name;
    case 'actionProfile':
      return tenant.actionProfile.id;
    case 'action':
      return param === 'id' || param.toLowerCase() === 'actionid' ? tenant.action.id : tenant.action.name;
    case 'appPreference':
      return tenant.appPreference.id;
    case 'dashboard':
      return tenant.dashboard.id;
    case 'flow':
      return tenant.flow.id;
    case 'widget':
      return tenant.widget.id;
    case 'dashboardAsset':
      return tenant.dashboardAsset.name;
    case 'galleryAsset':
      return tenant.galleryAsset.name;
    case 'invitation':
      return tenant.invitation.id;
    default:
      return tenant.user.id;
  }
}

/** The value of an id-like body field or query parameter of the given kind (undefined: not id-like). */
export function fieldValue(tenant: Tenant, name: string, path: string, caller: Tenant): string | undefined {
  const n = name.toLowerCase();
  if (n === 'email') return undefined;
  const kind = kindOfName(name, path);
  if (kind === 'importToken') return caller.importToken;
  // The application-permission catalogue is shared by all organizations: naming an entry is no foreign reference.
  if (kind === 'appPermission') return caller.appPermission.id;
  if (!kind) return undefined;
  if (kind === 'user' && (n.includes('name') || n.includes('email'))) return tenant.user.email;
  if (kind === 'device' && n.includes('label')) return tenant.device.label;
  if (kind === 'device' && n === 'alias') return tenant.device.alias;
  // The edge configuration file takes the gateway's own (VPN, ACTIVE) activation key.
  if (kind === 'deviceLicense' && n.includes('key') && path.startsWith('/svc/vpn2/'))
    return tenant.gateway.activationKey;
  if (kind === 'deviceLicense' && n.includes('key')) return tenant.deviceLicense.key;
  if (kind === 'policy' && n.startsWith('parent')) return tenant.sparePolicy.id;
  // Plans are named alike in every app (the catalogue is shared): a plan is no foreign reference.
  if (kind === 'orgApp') return n === 'plan' ? caller.orgApp.plan : undefined;
  if (kind === 'license' && n.includes('code')) return tenant.license.code;
  if (kind === 'action') return n.includes('name') || n === 'action' ? tenant.action.name : tenant.action.id;
  return pathValue(tenant, kind, path, 'id', undefined);
}
