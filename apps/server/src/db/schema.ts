import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const ROLE_KINDS = ['general', 'data', 'device'] as const;
export type RoleKind = (typeof ROLE_KINDS)[number];

/** A data role's right on a model path (and everything below it). */
export type ModelPathPermission = { path: string; read: boolean; write: boolean };

/** A device role's reach: device groups, single devices, and whether VPN access to them is allowed. */
export type DeviceAccess = { deviceGroupIds: string[]; deviceIds: string[]; vpn: boolean };

/** A role's grant as stored: Keycloak-style resource name with scopes; `INHERIT` carries it into sub-organizations. */
export type StoredPermission = {
  rsname: string;
  scopes: string[];
  inverted?: boolean;
  conditions?: Record<string, unknown>;
  fields?: string[];
};

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const realms = pgTable('realms', {
  name: text('name').primaryKey(),
  displayName: text('display_name').notNull(),
  createdAt: createdAt(),
});

export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  realm: text('realm')
    .notNull()
    .references(() => realms.name, { onDelete: 'cascade' }),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: createdAt(),
});

export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    resourceId: text('resource_id').notNull().unique(),
    realm: text('realm')
      .notNull()
      .references(() => realms.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    parentId: uuid('parent_id'),
    iotEnabled: boolean('iot_enabled').notNull().default(true),
    vpnEnabled: boolean('vpn_enabled').notNull().default(true),
    dealer: boolean('dealer').notNull().default(false),
    hasOwnResources: boolean('has_own_resources').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('organizations_parent_idx').on(t.parentId), index('organizations_realm_idx').on(t.realm)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm')
      .notNull()
      .references(() => realms.name, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    locale: text('locale'),
    enabled: boolean('enabled').notNull().default(true),
    requiredActions: jsonb('required_actions').$type<string[]>().notNull().default([]),
    totpSecret: text('totp_secret'),
    passwordChangeInvitation: boolean('password_change_invitation').notNull().default(false),
    groupPoliciesEnabled: boolean('group_policies_enabled').notNull().default(false),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_realm_email_idx').on(t.realm, t.email)],
);

export const memberships = pgTable(
  'memberships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** `general` roles grant actions on resource types; `data` roles add model-path rights; `device` roles device access. */
    kind: text('kind').$type<RoleKind>().notNull().default('general'),
    permissions: jsonb('permissions').$type<StoredPermission[]>().notNull().default([]),
    modelPathPermissions: jsonb('model_path_permissions')
      .$type<ModelPathPermission[]>()
      .notNull()
      .default([]),
    applicationPermissionIds: jsonb('application_permission_ids').$type<string[]>().notNull().default([]),
    deviceAccess: jsonb('device_access')
      .$type<DeviceAccess>()
      .notNull()
      .default({ deviceGroupIds: [], deviceIds: [], vpn: false }),
    /** User ids who own (may edit) the role besides administrators (spec 3 "Role: name, owners"). */
    owners: jsonb('owners').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roles_org_name_idx').on(t.organizationId, t.name)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const userGroups = pgTable(
  'user_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_groups_org_name_idx').on(t.organizationId, t.name)],
);

/** A group member carries a role of its own inside the group (spec 3: "members (each with a role)"). */
export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => userGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id').references(() => roles.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] })],
);

export const groupRoles = pgTable(
  'group_roles',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => userGroups.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.roleId] })],
);

/** Storage of oidc-provider models (sessions, codes, grants, refresh tokens, interactions). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.type, t.id] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);

/** Per-install secrets (cookie signing keys and the like), generated on first start, never in code or config. */
export const installSecrets = pgTable('install_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/** An organization's look: applied to the portal shell and, for a realm's root organization, its login page. */
export const themes = pgTable('themes', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  brandName: text('brand_name').notNull(),
  primaryColor: text('primary_color').notNull(),
  logoUrl: text('logo_url'),
  colorScheme: text('color_scheme').$type<'light' | 'dark' | 'auto'>().notNull().default('auto'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const AGREEMENT_TYPES = ['TERM', 'PRIVACY', 'MAINTENANCE'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

/** A published version of terms, privacy notice or maintenance conditions of a service, per realm (brand). */
export const agreements = pgTable(
  'agreements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm')
      .notNull()
      .references(() => realms.name, { onDelete: 'cascade' }),
    serviceName: text('service_name').notNull(),
    type: text('type').$type<AgreementType>().notNull(),
    version: text('version').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull().default(''),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agreements_realm_service_type_version_idx').on(t.realm, t.serviceName, t.type, t.version),
  ],
);

export const agreementAcceptances = pgTable(
  'agreement_acceptances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    agreementId: uuid('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.agreementId] })],
);

/** Spec 3 "User preference": a value per user, service and property (e.g. portal / locale). */
export const userPreferences = pgTable(
  'user_preferences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceName: text('service_name').notNull(),
    property: text('property').notNull(),
    value1: text('value1').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_preferences_key_idx').on(t.userId, t.serviceName, t.property)],
);

export const STATUS_ISSUE_TYPES = ['incident', 'maintenance'] as const;

/** The status feed: incidents and maintenances shown as notices in the portal of a realm (null: every realm). */
export const statusIssues = pgTable('status_issues', {
  id: uuid('id').primaryKey().defaultRandom(),
  realm: text('realm').references(() => realms.name, { onDelete: 'cascade' }),
  type: text('type').$type<(typeof STATUS_ISSUE_TYPES)[number]>().notNull(),
  status: text('status').notNull(),
  title: text('title').notNull(),
  date: timestamp('date', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The catalogue of permissions applications (apps of the store, portal modules) define; roles pick from it. */
export const applicationPermissions = pgTable('application_permissions', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  application: text('application').notNull(),
  description: text('description').notNull().default(''),
});

/**
 * The devices of an organization: the part identity and access administration needs (moving, security policies,
 * refusing to delete an organization that still has devices). The devices-and-data work extends this table.
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    label: text('label').notNull(),
    alias: text('alias'),
    serialNumber: text('serial_number').notNull().default(''),
    description: text('description').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    status: text('status').notNull().default('OFFLINE'),
    createdAt: createdAt(),
  },
  (t) => [
    index('devices_org_idx').on(t.organizationId),
    uniqueIndex('devices_org_label_idx').on(t.organizationId, t.label),
  ],
);

/** What a security policy group enforces on the users and devices it is assigned to. */
export type SecurityPolicyRules = {
  /** CIDR ranges users may sign in from / devices may connect from; empty means anywhere. */
  allowedIpRanges: string[];
  requireTotp: boolean;
  /** Longest session in minutes; 0 means the realm default. */
  maxSessionMinutes: number;
};

/** Security policy groups of spec 3: assignable to users and devices; a group may nest other groups. */
export const securityPolicies = pgTable(
  'security_policies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    rules: jsonb('rules')
      .$type<SecurityPolicyRules>()
      .notNull()
      .default({ allowedIpRanges: [], requireTotp: false, maxSessionMinutes: 0 }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('security_policies_org_name_idx').on(t.organizationId, t.name),
    index('security_policies_parent_idx').on(t.parentId),
  ],
);

export const userSecurityPolicies = pgTable(
  'user_security_policies',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => securityPolicies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.policyId] })],
);

export const deviceSecurityPolicies = pgTable(
  'device_security_policies',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => securityPolicies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.policyId] })],
);

/** A token an organization hands out so devices or organizations can be moved into it. Stored as a SHA-256 hash. */
export const importTokens = pgTable('import_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** Personal API keys: the secret is shown once and stored as a SHA-256 hash. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);

/** Service-account clients of an organization (machine-to-machine access); the secret is stored hashed. */
export const serviceClients = pgTable(
  'service_clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash'),
    secretCreatedAt: timestamp('secret_created_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('service_clients_org_name_idx').on(t.organizationId, t.name)],
);

/** Every mutation of every service, for the audit log (/log). Values are stored as given and shown back inertly. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    realm: text('realm').notNull(),
    organizationId: uuid('organization_id'),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email').notNull().default(''),
    /** What happened, `{resourceType}.{verb}`, for example `roles.update`. */
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    resourceName: text('resource_name').notNull().default(''),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_org_at_idx').on(t.organizationId, t.at),
    index('audit_log_resource_idx').on(t.resourceType, t.resourceId),
  ],
);

/** Mail waiting to be sent or kept as the record of what was sent (the outbox transport keeps everything here). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm'),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_recipient_idx').on(t.recipient)],
);

/** One-time links that run required actions (UPDATE_PASSWORD) without a password, as in Keycloak's action e-mails. */
export const actionTokens = pgTable('action_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  actions: jsonb('actions').$type<string[]>().notNull(),
  redirectUri: text('redirect_uri'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});
