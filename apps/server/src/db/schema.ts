import type { alarms as alarmContract, limits, notifications, triggers } from '@edgeport/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  doublePrecision,
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

/** PostgreSQL's binary string; node-postgres and PGlite hand it over as a Buffer / Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

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
  /**
   * The operator's organization: its administrators are the realm's platform operators (status feed, free device
   * licence keys). Self-onboarded tenants share the realm but never own it. Set when the realm's first root
   * organization is made; the migration backfilled the oldest root organization.
   */
  ownerOrganizationId: uuid('owner_organization_id'),
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
    /** Off: preauthorized transactions answer ERROR_NO_IN_APP_PURCHASES. */
    inAppPurchases: boolean('in_app_purchases').notNull().default(true),
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

/**
 * An existing account asked to join an organization. Until its owner accepts, the account is not a member and the
 * organization can change nothing of it; accepting adds the membership with the roles and groups named here.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    roleIds: jsonb('role_ids').$type<string[]>().notNull().default([]),
    groupIds: jsonb('group_ids').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('organization_invitations_org_user_idx').on(t.organizationId, t.userId),
    index('organization_invitations_user_idx').on(t.userId),
  ],
);

/**
 * Failed sign-ins per realm, user name and client address, counted in one statement before the password is checked.
 * Keyed by the name typed (not the account) so an unknown name is treated exactly like an existing one; keyed by the
 * client address so an attacker elsewhere slows only themselves, not the owner.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    realm: text('realm')
      .notNull()
      .references(() => realms.name, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    clientAddress: text('client_address').notNull(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.realm, t.username, t.clientAddress] })],
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

/** Model paths registered in an organization for its roles to grant, besides the paths of its data models. */
export const modelPaths = pgTable(
  'model_paths',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.path] })],
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

export const DEVICE_STATUSES = ['ONLINE', 'OFFLINE'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const MODEL_PATH_TYPES = ['number', 'integer', 'boolean', 'string'] as const;
export type ModelPathType = (typeof MODEL_PATH_TYPES)[number];

/** One typed data path of a model; slashes make the tree (`/motor/speed` sits under `/motor`), as in data roles. */
export type ModelPath = {
  path: string;
  type: ModelPathType;
  unit?: string;
  description?: string;
  /** Whether a value may be written back to the device (set-point). */
  writable?: boolean;
  min?: number;
  max?: number;
};

/** A preset's binding of one device data tag to a model path, optionally through a formula of `value`. */
export type PresetMapping = { tag: string; path: string; formula?: string };

/** Models: a named tree of typed data paths with versions; the current version is what presets bind to. */
export const models = pgTable(
  'models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    subOrgsEnabledToView: boolean('sub_orgs_enabled_to_view').notNull().default(false),
    currentVersion: integer('current_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('models_org_name_idx').on(t.organizationId, t.name)],
);

export const modelVersions = pgTable(
  'model_versions',
  {
    modelId: uuid('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    paths: jsonb('paths').$type<ModelPath[]>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.version] })],
);

/** Presets bind a device's data tags to a model version and carry the configuration sent to the device. */
export const presets = pgTable(
  'presets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'restrict' }),
    modelVersion: integer('model_version').notNull(),
    mappings: jsonb('mappings').$type<PresetMapping[]>().notNull().default([]),
    deviceConfiguration: jsonb('device_configuration').$type<Record<string, unknown>>().notNull().default({}),
    subOrgsEnabledToView: boolean('sub_orgs_enabled_to_view').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('presets_org_name_idx').on(t.organizationId, t.name)],
);

export const PRESET_JOB_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;

/** Asynchronous preset creation: progress a client polls from `/presets/async/{id}`. */
export const presetJobs = pgTable('preset_jobs', {
  id: uuid('id').primaryKey().defaultRandom(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  status: text('status').$type<(typeof PRESET_JOB_STATUSES)[number]>().notNull().default('RUNNING'),
  progress: integer('progress').notNull().default(0),
  presetId: uuid('preset_id').references(() => presets.id, { onDelete: 'set null' }),
  error: text('error'),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * The devices of an organization: identity data (label, alias, serial number), labelling tags, the preset binding its
 * data to a model, connection status and map position.
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
    status: text('status').$type<DeviceStatus>().notNull().default('OFFLINE'),
    /** The preset binding the device's data tags to a model; null until one is chosen. */
    presetId: uuid('preset_id').references(() => presets.id, { onDelete: 'set null' }),
    configuration: jsonb('configuration').$type<Record<string, unknown>>().notNull().default({}),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** The organization's service account acting for this device (experimental flag deviceServiceAccountAssociation). */
    serviceClientId: uuid('service_client_id').references(() => serviceClients.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('devices_org_idx').on(t.organizationId),
    uniqueIndex('devices_org_label_idx').on(t.organizationId, t.label),
    index('devices_org_status_idx').on(t.organizationId, t.status, t.id),
    uniqueIndex('devices_org_alias_idx').on(t.organizationId, t.alias),
    // The devices table with 100,000 devices (bench/devices-table.bench.ts): substring search, sorts, tag filters.
    index('devices_search_trgm_idx').using(
      'gin',
      t.label.op('gin_trgm_ops'),
      t.alias.op('gin_trgm_ops'),
      t.serialNumber.op('gin_trgm_ops'),
    ),
    index('devices_org_last_seen_idx').on(t.organizationId, t.lastSeenAt.desc().nullsLast(), t.id.desc()),
    index('devices_org_serial_idx').on(t.organizationId, t.serialNumber, t.id),
    index('devices_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('devices_tags_idx').using('gin', t.tags.op('jsonb_path_ops')),
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

export const deviceGroups = pgTable(
  'device_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('device_groups_org_name_idx').on(t.organizationId, t.name)],
);

export const deviceGroupMembers = pgTable(
  'device_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => deviceGroups.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.deviceId] }),
    index('device_group_members_device_idx').on(t.deviceId),
  ],
);

/** A device's MQTT credentials, issued at activation: the username is public, the secret is stored as SHA-256. */
export const deviceCredentials = pgTable('device_credentials', {
  deviceId: uuid('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  username: text('username').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  createdAt: createdAt(),
});

export const DEVICE_LICENSE_STATUSES = ['AVAILABLE', 'ACTIVE', 'EXPIRED'] as const;

/** Device licences: an activation key an organization holds; activation binds it to a new device. */
export const deviceLicenses = pgTable(
  'device_licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    activationKey: text('activation_key').notNull().unique(),
    /** The licence (of a device product) it came with; its term is the licence's. Null: issued on its own. */
    licenseId: uuid('license_id').references(() => licenses.id, { onDelete: 'set null' }),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    vpn: boolean('vpn').notNull().default(false),
    autorenew: boolean('autorenew').notNull().default(false),
    status: text('status').$type<(typeof DEVICE_LICENSE_STATUSES)[number]>().notNull().default('AVAILABLE'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('device_licenses_org_idx').on(t.organizationId)],
);

/** Connection history: every ONLINE/OFFLINE change of a device. */
export const deviceStatusHistory = pgTable(
  'device_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    status: text('status').$type<DeviceStatus>().notNull(),
    detail: text('detail').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_status_history_device_at_idx').on(t.deviceId, t.at)],
);

/**
 * Stored device values: one row per accepted message, values keyed by model path. No foreign key, for ingest speed:
 * deleting a device deletes its rows explicitly. Partitioned by UTC day (migration 0018, telemetry/partitions.ts):
 * drizzle-kit does not know partitioning, so the parent is declared here as a plain table.
 */
export const telemetry = pgTable(
  'telemetry',
  {
    deviceId: uuid('device_id').notNull(),
    ts: timestamp('ts', { withTimezone: true, precision: 6 }).notNull(),
    values: jsonb('values').$type<Record<string, number | boolean | string>>().notNull(),
  },
  (t) => [index('telemetry_device_ts_idx').on(t.deviceId, t.ts)],
);

/**
 * Stored device values once their day is over (telemetry/compaction.ts): per device, path and UTC hour, the values
 * in time order as arrays. `deltas` are the microseconds from the previous value (the first from the hour's start),
 * which compress to almost nothing for regular sampling; numbers and booleans (`kind`) are float8s in `numbers`
 * (booleans 0 and 1), anything else a jsonb array in `others`. Read through telemetry_series (migration 0019).
 */
export const telemetryBlocks = pgTable(
  'telemetry_blocks',
  {
    deviceId: uuid('device_id').notNull(),
    path: text('path').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
    kind: text('kind').$type<'number' | 'boolean' | 'json'>().notNull(),
    deltas: bigint('deltas', { mode: 'number' }).array().notNull(),
    numbers: doublePrecision('numbers').array(),
    others: jsonb('others').$type<unknown[]>(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.hour, t.path] })],
);

/**
 * Per device and path, the numeric values (booleans as 0 and 1) of each minute (`width_s` 60) and hour (3600), added
 * every second by the ingest pipeline that stored them (telemetry/rollup-accumulator.ts), late values too. No foreign
 * key, as telemetry.
 */
export const telemetryRollups = pgTable(
  'telemetry_rollups',
  {
    deviceId: uuid('device_id').notNull(),
    path: text('path').notNull(),
    widthS: integer('width_s').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    min: doublePrecision('min').notNull(),
    max: doublePrecision('max').notNull(),
    sum: doublePrecision('sum').notNull(),
    count: integer('count').notNull(),
    lastTs: timestamp('last_ts', { withTimezone: true, precision: 6 }).notNull(),
    last: doublePrecision('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.path, t.widthS, t.bucket] })],
);

/**
 * When each instance last added its accumulated rollups (telemetry/rollup-accumulator.ts), and whether it stopped
 * cleanly after: a start that finds `clean` false computes the minutes around `flushed_at` again from the values.
 */
export const telemetryRollupFlushes = pgTable('telemetry_rollup_flushes', {
  instance: text('instance').primaryKey(),
  flushedAt: timestamp('flushed_at', { withTimezone: true }).notNull(),
  clean: boolean('clean').notNull(),
});

/** The latest value of every path of every device (kept hot in memory by ingest, written through here). */
export const latestValues = pgTable(
  'latest_values',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    value: jsonb('value').$type<number | boolean | string>().notNull(),
    ts: timestamp('ts', { withTimezone: true, precision: 6 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.path] })],
);

/** The data tags a device has reported (its `availableTags`), whether or not its preset maps them. */
export const deviceDataTags = pgTable(
  'device_data_tags',
  {
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.name] })],
);

/** Per-device ingest counters: what was accepted and what was refused and why (never stored as data). */
export const deviceIngestStats = pgTable('device_ingest_stats', {
  deviceId: uuid('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  accepted: bigint('accepted', { mode: 'number' }).notNull().default(0),
  malformed: bigint('malformed', { mode: 'number' }).notNull().default(0),
  unknownPath: bigint('unknown_path', { mode: 'number' }).notNull().default(0),
  wrongType: bigint('wrong_type', { mode: 'number' }).notNull().default(0),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
});

/** The app catalogue of the store: apps the portal embeds (through the host/app bridge) at their entry address. */
export const apps = pgTable('apps', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  publisher: text('publisher').notNull().default(''),
  /** Where the embedded app starts; its origin is the only one the portal sends tokens to. */
  entryUrl: text('entry_url').notNull(),
  version: text('version').notNull().default('1.0.0'),
  plans: jsonb('plans').$type<AppPlan[]>().notNull().default([]),
  createdAt: createdAt(),
});

/** Alarm rules: a condition on a model path (or the connection) of one device or of every device of the organization. */
export const alarmRules = pgTable(
  'alarm_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    condition: jsonb('condition').$type<alarmContract.AlarmCondition>().notNull(),
    severity: text('severity').$type<alarmContract.Severity>().notNull(),
    ackRequired: boolean('ack_required').notNull().default(false),
    resetRequired: boolean('reset_required').notNull().default(false),
    delaySeconds: integer('delay_seconds').notNull().default(0),
    hysteresis: doublePrecision('hysteresis').notNull().default(0),
    message: text('message').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_rules_org_name_idx').on(t.organizationId, t.name)],
);

/**
 * Alarm instances. `status` follows the condition (ACTIVE/CLEARED); `ack`/`reset` are REQUIRED, DONE or
 * NOT_REQUIRED; `cleared_at` closes the alarm (an operator's clear, or by itself once the condition is gone and
 * nothing is required any more). Open alarms (cleared_at null) are what counts.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => alarmRules.id, { onDelete: 'set null' }),
    triggerId: uuid('trigger_id').references(() => triggerRules.id, { onDelete: 'set null' }),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: text('path'),
    severity: text('severity').$type<alarmContract.Severity>().notNull(),
    status: text('status').$type<alarmContract.AlarmStatus>().notNull().default('ACTIVE'),
    ack: text('ack').$type<alarmContract.Requirement>().notNull(),
    reset: text('reset').$type<alarmContract.Requirement>().notNull(),
    message: text('message').notNull(),
    value: jsonb('value').$type<number | boolean | string>(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    conditionClearedAt: timestamp('condition_cleared_at', { withTimezone: true }),
    ackAt: timestamp('ack_at', { withTimezone: true }),
    ackBy: text('ack_by'),
    resetAt: timestamp('reset_at', { withTimezone: true }),
    resetBy: text('reset_by'),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    clearedBy: text('cleared_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('alarms_org_open_idx').on(t.organizationId, t.clearedAt, t.severity),
    index('alarms_org_raised_idx').on(t.organizationId, t.raisedAt),
    index('alarms_rule_device_idx').on(t.ruleId, t.deviceId),
    // One open alarm per rule and device, whichever instance raises it (a cluster's partitions hand over).
    uniqueIndex('alarms_open_rule_device_idx')
      .on(t.ruleId, t.deviceId)
      .where(sql`${t.clearedAt} is null and ${t.ruleId} is not null and ${t.deviceId} is not null`),
    index('alarms_device_idx').on(t.deviceId),
  ],
);

/** Every step of every alarm: raised, acknowledged, reset, condition cleared, cleared, closed. */
export const alarmEvents = pgTable(
  'alarm_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').notNull(),
    kind: text('kind').$type<alarmContract.AlarmEventKind>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    by: text('by'),
    value: jsonb('value').$type<number | boolean | string>(),
    detail: text('detail').notNull().default(''),
  },
  (t) => [index('alarm_events_alarm_idx').on(t.alarmId, t.at)],
);

/** Trigger rules: when a condition on data or alarm state becomes true, run an action. */
export const triggerRules = pgTable(
  'trigger_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    condition: jsonb('condition').$type<triggers.TriggerCondition>().notNull(),
    action: jsonb('action').$type<triggers.TriggerAction>().notNull(),
    cooldownSeconds: integer('cooldown_seconds').notNull().default(0),
    runCount: integer('run_count').notNull().default(0),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('trigger_rules_org_name_idx').on(t.organizationId, t.name)],
);

/** Notification rules: which alarm events (or triggers) reach which recipients. */
export const notificationRules = pgTable(
  'notification_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    language: text('language'),
    source: jsonb('source').$type<notifications.NotificationSource>().notNull(),
    recipients: jsonb('recipients').$type<notifications.Recipients>().notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notification_rules_org_name_idx').on(t.organizationId, t.name)],
);

export type DeliveryStatus = 'PENDING' | 'SENT' | 'FAILED';

/** One notification message to one recipient, with its retries; FAILED rows are the failed-notification log. */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    notificationId: uuid('notification_id').references(() => notificationRules.id, { onDelete: 'set null' }),
    notificationName: text('notification_name').notNull(),
    channel: text('channel').$type<'email' | 'webhook'>().notNull(),
    target: text('target').notNull(),
    language: text('language').notNull().default('en'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('notification_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('notification_deliveries_org_idx').on(t.organizationId, t.status, t.createdAt),
  ],
);

/** An organization's notification channels: e-mail sender, webhook signing secret, quiet hours, allowed hosts. */
export const notificationSettings = pgTable('notification_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  sender: text('sender'),
  webhookSecret: text('webhook_secret'),
  quietHours: jsonb('quiet_hours').$type<{ start: string; end: string; timeZone: string }>(),
  allowedWebhookHosts: jsonb('allowed_webhook_hosts').$type<string[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Limits set for an organization (null value: unlimited). */
export const organizationLimits = pgTable('organization_limits', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  limits: jsonb('limits').$type<Partial<Record<limits.StoredLimitKey, number | null>>>().notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Daily metered usage per organization (UTC day), for the per-day limits. */
export const limitUsage = pgTable(
  'limit_usage',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    dataPoints: bigint('data_points', { mode: 'number' }).notNull().default(0),
    notifications: integer('notifications').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

// ---- Licences, subscriptions, billing and the store (issue 8) ----

/** What a product grants per licence unit; each is metered into the resource journal by the service that uses it. */
export const RESOURCE_TYPES = ['devices', 'users', 'dataPoints', 'vpnMinutes'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const LICENSE_STATUSES = ['ISSUED', 'ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/** A dealer's (or the platform's) product: a code and versions; each version fixes the grant, term and price. */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organization that sells it (a dealer, or a top-level organization). */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    resourceType: text('resource_type').$type<ResourceType>().notNull(),
    currentVersion: integer('current_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('products_org_code_idx').on(t.organizationId, t.code)],
);

export const productVersions = pgTable(
  'product_versions',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** Units of `resourceType` one licence unit grants (for devices: activation keys; vpnMinutes: minutes a term). */
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    termDays: integer('term_days').notNull(),
    /** Price of one licence unit for one term, in integer minor units of `currency` (cents). */
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** Device products only: the activation keys are VPN device licences. */
    vpn: boolean('vpn').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.version] })],
);

/** A licence: a product version held by an organization (issued by a dealer), for a term; device products come with their device licences. */
export const licenses = pgTable(
  'licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The holder. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The dealer organization that issued it (null once that organization is gone). */
    issuerOrganizationId: uuid('issuer_organization_id').references(() => organizations.id, {
      onDelete: 'set null',
    }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'restrict' }),
    productVersion: integer('product_version').notNull(),
    licenseCode: text('license_code').notNull().unique(),
    /** Licence units (a pack of 5 device licences is quantity 5 of a one-device product). */
    quantity: integer('quantity').notNull().default(1),
    status: text('status').$type<LicenseStatus>().notNull().default('ISSUED'),
    autorenew: boolean('autorenew').notNull().default(false),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Expiry warnings already sent for the current term (days ahead: 30, 7). */
    warnedDays: jsonb('warned_days').$type<number[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('licenses_org_created_idx').on(t.organizationId, t.createdAt),
    index('licenses_issuer_idx').on(t.issuerOrganizationId),
    index('licenses_expiry_idx').on(t.status, t.expiresAt),
  ],
);

/** What happened to a licence (spec 7 "GET /subscriptions/history"). */
export const licenseEvents = pgTable(
  'license_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    licenseId: uuid('license_id').references(() => licenses.id, { onDelete: 'cascade' }),
    /** ISSUED, ACTIVATED, RENEWED, AUTORENEW_ON, AUTORENEW_OFF, EXPIRY_WARNING, EXPIRED, REVOKED. */
    event: text('event').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('license_events_org_at_idx').on(t.organizationId, t.at)],
);

/** Metered resource usage: one row per change (+1 device activated, -1 device deleted, +N data points in a minute). */
export const resourceJournal = pgTable(
  'resource_journal',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    resourceType: text('resource_type').$type<ResourceType>().notNull(),
    delta: bigint('delta', { mode: 'number' }).notNull(),
    /** Why, `{area}.{verb}`: device.activated, device.deleted, user.invited, dataPoints.ingested... */
    reason: text('reason').notNull(),
    subjectId: text('subject_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('resource_journal_org_type_at_idx').on(t.organizationId, t.resourceType, t.at)],
);

export const INVOICE_STATUSES = ['OPEN', 'PAID', 'FAILED', 'VOID'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** What the default payment provider records: an invoice an operator of an ancestor organization marks paid. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull().unique(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<InvoiceStatus>().notNull().default('OPEN'),
    provider: text('provider').notNull(),
    /** What it pays for: `license:{id}`, `app:{organizationAppId}`, `transaction:{id}/{n}`. */
    reference: text('reference').notNull(),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** Who marked it paid (user id), or the provider's payment id. */
    paidBy: text('paid_by'),
  },
  (t) => [index('invoices_org_idx').on(t.organizationId, t.createdAt)],
);

export const TRANSACTION_RESULTS = [
  'AUTHORIZED',
  'USER_REJECTED',
  'ERROR_NO_EMPTY_TRANSACTIONS',
  'ERROR_NO_IN_APP_PURCHASES',
] as const;
export type TransactionResult = (typeof TRANSACTION_RESULTS)[number];

/** A preauthorized transaction: the organization allows up to `maxExecutions` charges of at most `maxAmountMinor`. */
export const preauthorizedTransactions = pgTable(
  'preauthorized_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    /** What it pays for, as in invoices.reference (for example `app:{organizationAppId}`). */
    purpose: text('purpose').notNull(),
    currency: text('currency').notNull(),
    maxAmountMinor: bigint('max_amount_minor', { mode: 'number' }).notNull(),
    maxExecutions: integer('max_executions').notNull(),
    result: text('result').$type<TransactionResult>().notNull(),
    /** ACTIVE (AUTHORIZED and not revoked), REVOKED, EXHAUSTED, or REFUSED (any other result). */
    status: text('status').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('preauthorized_transactions_org_idx').on(t.organizationId, t.createdAt)],
);

/** One charge (execution order n = 1, 2, ...) made under a preauthorized transaction. */
export const transactionExecutions = pgTable(
  'transaction_executions',
  {
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => preauthorizedTransactions.id, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    invoiceId: uuid('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    /** PENDING (invoice open), PAID, FAILED. */
    status: text('status').notNull(),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.transactionId, t.n] })],
);

/** A price plan of a store app. */
export type AppPlan = {
  id: string;
  name: string;
  priceMinor: number;
  currency: string;
  period: 'MONTH' | 'YEAR';
};

export const appLikes = pgTable(
  'app_likes',
  {
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] })],
);

/** An app installed in an organization, on a plan, paid through a preauthorized transaction. */
export const organizationApps = pgTable(
  'organization_apps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    appId: text('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    /** The catalogue version installed; upgrade moves it to the catalogue's. */
    version: text('version').notNull(),
    /** ACTIVE, or PAYMENT_DUE while the last charge is unpaid. */
    status: text('status').notNull(),
    transactionId: uuid('transaction_id').references(() => preauthorizedTransactions.id, {
      onDelete: 'set null',
    }),
    nextBillingAt: timestamp('next_billing_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('organization_apps_org_app_idx').on(t.organizationId, t.appId)],
);

// --- Remote access: gateways, endpoints, applications, tunnel sessions (issue 9) ------------------------------------

export const ENDPOINT_PROTOCOLS = ['HTTP', 'HTTPS', 'TCP'] as const;
export type EndpointProtocol = (typeof ENDPOINT_PROTOCOLS)[number];

/**
 * The remote-access side of a device activated with a VPN device licence: the credentials of the gateway agent that
 * runs at the plant, the LAN it reaches, and the state of its tunnel. Its position is the device's.
 */
export const gateways = pgTable(
  'gateways',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .unique()
      .references(() => devices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The plant LAN the agent reaches (IPv4 CIDR); endpoints must lie inside it. Null until reported or set. */
    lanNetwork: text('lan_network'),
    /** The gateway's address in the VPN network (shown with the showVpnIp flag). */
    vpnIp: text('vpn_ip'),
    /** The application profile: which applications its endpoints offer and whether connecting needs an OTP. */
    profileId: uuid('profile_id').references(() => vpnActionProfiles.id, { onDelete: 'set null' }),
    /** Client networks (IPv4/IPv6 CIDR) allowed to open sessions; empty: any (the ipFilter flag shows it). */
    ipFilter: jsonb('ip_filter').$type<string[]>().notNull().default([]),
    /** sha256 hex of the agent's secret, issued with the edge configuration file. Null: never configured. */
    agentSecretHash: text('agent_secret_hash'),
    agentVersion: text('agent_version'),
    /** Where the agent's tunnel came from. */
    agentAddress: text('agent_address'),
    status: text('status').$type<'ONLINE' | 'OFFLINE'>().notNull().default('OFFLINE'),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('gateways_org_name_idx').on(t.organizationId, t.name)],
);

/** A machine on a gateway's LAN: an HTTP(S) service reached in the browser, or any TCP port (VNC, SSH, Modbus...). */
export const vpnEndpoints = pgTable(
  'vpn_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** IPv4 address inside the gateway's LAN. */
    address: text('address').notNull(),
    protocol: text('protocol').$type<EndpointProtocol>().notNull(),
    port: integer('port').notNull(),
    description: text('description').notNull().default(''),
    /** PORTAL: created by a user; AGENT: reported by the gateway agent. */
    source: text('source').$type<'PORTAL' | 'AGENT'>().notNull().default('PORTAL'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vpn_endpoints_gateway_name_idx').on(t.gatewayId, t.name)],
);

/** Application profile (action profile) of a domain: a set of applications, and whether connecting needs an OTP. */
export const vpnActionProfiles = pgTable(
  'vpn_action_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    otpRequired: boolean('otp_required').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vpn_action_profiles_org_name_idx').on(t.organizationId, t.name)],
);

/** Application (action) of a domain: how to open an endpoint (protocol, port, path) and on which client systems. */
export const vpnActions = pgTable(
  'vpn_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    profileId: uuid('profile_id').references(() => vpnActionProfiles.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    protocol: text('protocol').$type<EndpointProtocol>().notNull(),
    port: integer('port').notNull(),
    /** HTTP(S): the path opened first. */
    path: text('path').notNull().default('/'),
    /** Client systems it is offered on (Win, Lin, Mac, Android, iOS); empty: all. */
    clientOs: jsonb('client_os').$type<string[]>().notNull().default([]),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('vpn_actions_org_name_idx').on(t.organizationId, t.name)],
);

/** A user's saved application shortcuts (spec 7 application preferences). */
export const vpnApplicationPreferences = pgTable(
  'vpn_application_preferences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gatewayName: text('gateway_name').notNull(),
    endpointName: text('endpoint_name').notNull(),
    actionName: text('action_name').notNull(),
    clientOs: text('client_os').notNull().default(''),
    label: text('label').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('vpn_application_preferences_user_idx').on(t.organizationId, t.userId)],
);

/** A user's password for an application (for example a VNC password), encrypted at rest, handed back on executeAction. */
export const vpnApplicationPasswords = pgTable(
  'vpn_application_passwords',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actionId: uuid('action_id')
      .notNull()
      .references(() => vpnActions.id, { onDelete: 'cascade' }),
    /** AES-256-GCM: iv.tag.ciphertext, base64url. */
    secret: text('secret').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.actionId] })],
);

/** What happened on a gateway: tunnel up/down, resets, sessions, configuration. `system` rows are hidden by default. */
export const gatewayLogs = pgTable(
  'gateway_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    level: text('level').$type<'INFO' | 'WARN' | 'ERROR'>().notNull().default('INFO'),
    system: boolean('system').notNull().default(false),
    message: text('message').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('gateway_logs_gateway_at_idx').on(t.gatewayId, t.at)],
);

/** A user's VPN connection to a gateway (or one endpoint of it): opened by connect (with an OTP where required). */
export const vpnConnections = pgTable(
  'vpn_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').references(() => vpnEndpoints.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientIp: text('client_ip').notNull(),
    clientOs: text('client_os').notNull().default(''),
    otpVerified: boolean('otp_verified').notNull().default(false),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
  },
  (t) => [index('vpn_connections_user_idx').on(t.organizationId, t.userId, t.gatewayId)],
);

/** One access through the tunnel: browser access to an HTTP(S) endpoint, or TCP forwarding by the companion CLI. */
export const vpnSessions = pgTable(
  'vpn_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    gatewayId: uuid('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id').references(() => vpnEndpoints.id, { onDelete: 'set null' }),
    connectionId: uuid('connection_id').references(() => vpnConnections.id, { onDelete: 'set null' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'BROWSER' | 'TCP'>().notNull(),
    protocol: text('protocol').$type<EndpointProtocol>().notNull(),
    targetAddress: text('target_address').notNull(),
    targetPort: integer('target_port').notNull(),
    clientIp: text('client_ip').notNull(),
    /** sha256 hex of the session secret (the browser cookie, or the companion CLI's token). */
    secretHash: text('secret_hash').notNull(),
    /** Browser access: sha256 hex of the one-time ticket that sets the cookie; null once used. */
    ticketHash: text('ticket_hash'),
    ticketExpiresAt: timestamp('ticket_expires_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    bytesOut: bigint('bytes_out', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('vpn_sessions_gateway_idx').on(t.gatewayId, t.startedAt),
    index('vpn_sessions_org_idx').on(t.organizationId, t.startedAt),
  ],
);

/** The legacy remote-access login (spec 7): a cookie session kept alive by a ping every 180 s. */
export const vpnLegacySessions = pgTable('vpn_legacy_sessions', {
  /** sha256 hex of the cookie value. */
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

// ---------------------------------------------------------------------------------------------------------------------
// Dashboards and flows (spec 3, 4, 7 "Dashboard")

/** What a row of `dashboards` is: a dashboard, a flow (a tree of dashboard entries), or a reusable widget. */
export const DASHBOARD_KINDS = ['dashboard', 'flow', 'widget'] as const;
export type DashboardKind = (typeof DASHBOARD_KINDS)[number];

/** Sharing levels (spec 4): readers ('r') view, editors ('r/w') also edit. */
export const SHARE_LEVELS = ['r', 'r/w'] as const;
export type ShareLevel = (typeof SHARE_LEVELS)[number];

/**
 * A dashboard, flow or widget. Its content lives in versions; `currentVersion` is the one the viewer opens by default.
 * The owner may share; editors may edit and save versions; readers may view. Organization admins (UPDATE/DELETE on
 * `dashboards`) act as owners.
 */
export const dashboards = pgTable(
  'dashboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<DashboardKind>().notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    currentVersion: integer('current_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dashboards_org_kind_idx').on(t.organizationId, t.kind, t.name)],
);

/** Who else may open a dashboard (spec 4): one row a user, level 'r' (reader) or 'r/w' (editor), never both. */
export const dashboardShares = pgTable(
  'dashboard_shares',
  {
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: text('level').$type<ShareLevel>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.dashboardId, t.userId] }),
    index('dashboard_shares_user_idx').on(t.userId),
  ],
);

/**
 * One saved version of a dashboard's document (`@edgeport/dashboard-schema`), numbered from 1. `derivedFrom` names the
 * version it was derived from (spec 4 "derived from another version").
 */
export const dashboardVersions = pgTable(
  'dashboard_versions',
  {
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    derivedFrom: integer('derived_from'),
    comment: text('comment').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.dashboardId, t.version] })],
);

/** A file a dashboard shows (an image widget's picture). The bytes live in the BlobStore under `blobKey`. */
export const dashboardAssets = pgTable(
  'dashboard_assets',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.dashboardId, t.name] }),
    index('dashboard_assets_org_idx').on(t.organizationId),
  ],
);

/** A one-time upload URL for an asset (GET .../upload hands it out, the PUT to it consumes it). */
export const dashboardAssetUploads = pgTable('dashboard_asset_uploads', {
  /** sha256 hex of the token in the upload URL. */
  tokenHash: text('token_hash').primaryKey(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  dashboardId: uuid('dashboard_id')
    .notNull()
    .references(() => dashboards.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** The organization's gallery: an uploaded asset package with a manifest listing the widgets it provides. */
export const galleryAssets = pgTable(
  'gallery_assets',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    blobKey: text('blob_key').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.name] })],
);

/** A user's own settings for one dashboard (spec 7 userPreferences "with a dashboardId added"), by key. */
export const dashboardUserPreferences = pgTable(
  'dashboard_user_preferences',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dashboardId: uuid('dashboard_id')
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.dashboardId, t.key] })],
);

/**
 * File contents (dashboard assets, gallery packages) when the server runs on PostgreSQL: every instance of a cluster
 * reads what another stored (`DatabaseBlobStore`). Keys as `BlobStore` makes them; the owning row holds the key.
 */
export const blobs = pgTable('blobs', {
  key: text('key').primaryKey(),
  body: bytea('body').notNull(),
  size: integer('size').notNull(),
  createdAt: createdAt(),
});

/**
 * Request counts of rate-limited routes (sign-in, onboarding) per route and client key on PostgreSQL, so the limit
 * holds across the instances of a cluster. A row's window restarts when it has ended; old rows are swept.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
});

/**
 * The server instances of a cluster that are alive: each renews its row every few seconds. `internalUrl` is where
 * other instances reach it (forwarded remote-access sessions); its partitions' share is counted from the live rows.
 */
export const clusterInstances = pgTable('cluster_instances', {
  instanceId: text('instance_id').primaryKey(),
  internalUrl: text('internal_url').notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Which instance owns a device partition (devices hashed into a fixed number of partitions): the owner alone runs the
 * alarm and trigger state of those devices, as ThingsBoard assigns Kafka partitions. A lease that is not renewed
 * expires and another instance takes it.
 */
export const partitionLeases = pgTable('partition_leases', {
  partition: integer('partition').primaryKey(),
  instanceId: text('instance_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Which instance holds a gateway's tunnel: sessions reaching another instance are forwarded to the holder, and the
 * gateway is online while its lease is live. One row a gateway; the agent's new connection takes it over.
 */
export const gatewayLeases = pgTable('gateway_leases', {
  gatewayId: uuid('gateway_id')
    .primaryKey()
    .references(() => gateways.id, { onDelete: 'cascade' }),
  instanceId: text('instance_id').notNull(),
  connectionId: text('connection_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Timed work the cluster does once per period whichever instance's timer fires (the broker's full resync, sweeps of
 * expired rows): the instance whose conditional upsert moves `lastRunAt` runs it, the others skip (cluster/periodic.ts).
 */
export const periodicRuns = pgTable('periodic_runs', {
  name: text('name').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }).notNull(),
});
