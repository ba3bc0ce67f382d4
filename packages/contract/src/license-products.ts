// Spec 7 "Licence": products with versions, licences, the dealer area (clients, issued licences, organization
// account flags), the subscription history and the trial.
import { type Static, type TSchema, Type } from 'typebox';
import { literals, Paged } from './common.ts';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const uuid = Type.String({ format: 'uuid' });
const dateTime = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export * from './values/license-products.ts';

export const RESOURCE_TYPES = ['devices', 'users', 'dataPoints', 'vpnMinutes'] as const;
export const ResourceType = literals(RESOURCE_TYPES);
export type ResourceType = Static<typeof ResourceType>;

export const LICENSE_STATUSES = ['ISSUED', 'ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export const LicenseStatus = literals(LICENSE_STATUSES);
export type LicenseStatus = Static<typeof LicenseStatus>;

export const LICENSE_EVENTS = [
  'ISSUED',
  'ACTIVATED',
  'RENEWED',
  'AUTORENEW_ON',
  'AUTORENEW_OFF',
  'EXPIRY_WARNING',
  'EXPIRED',
  'REVOKED',
] as const;
export const LicenseEvent = literals(LICENSE_EVENTS);
export type LicenseEvent = Static<typeof LicenseEvent>;

export const OrganizationParams = Type.Object({ org: orgParam });
export const ProductParams = Type.Object({ org: orgParam, id: uuid });
export const LicenseParams = Type.Object({ org: orgParam, id: uuid });
export const ClientParams = Type.Object({ org: orgParam, client: uuid });

export const Count = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type Count = Static<typeof Count>;

// ---- Products ----

const code = Type.String({
  minLength: 1,
  maxLength: 60,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$',
  description: 'unique in the selling organization: letters, digits, dot, dash, underscore',
});
const currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code, e.g. EUR' });
const versionFields = {
  quantity: Type.Integer({
    minimum: 1,
    maximum: 1_000_000_000,
    description:
      'units of the resource ONE licence unit grants (devices: activation keys; vpnMinutes: minutes a term)',
  }),
  termDays: Type.Integer({ minimum: 1, maximum: 3660 }),
  priceMinor: Type.Integer({
    minimum: 0,
    maximum: 1_000_000_000_000,
    description: 'price of one licence unit for one term in integer minor units (cents) of currency',
  }),
  currency,
};

export const ProductVersion = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  ...versionFields,
  vpn: Type.Boolean({ description: 'devices products: the activation keys are VPN device licences' }),
  createdAt: dateTime,
});
export type ProductVersion = Static<typeof ProductVersion>;

export const Product = Type.Object({
  id: uuid,
  organizationId: uuid,
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  resourceType: ResourceType,
  currentVersion: Type.Integer({ minimum: 1 }),
  current: ProductVersion,
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type Product = Static<typeof Product>;
export const ProductPage = Paged(Product);

export const ProductCreate = Type.Object(
  {
    code,
    name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    resourceType: ResourceType,
    ...versionFields,
    vpn: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ProductCreate = Static<typeof ProductCreate>;

/** Name and description only: what a licence grants and costs is changed by a new version. */
export const ProductUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type ProductUpdate = Static<typeof ProductUpdate>;

export const ProductVersionCreate = Type.Object(
  { ...versionFields, vpn: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type ProductVersionCreate = Static<typeof ProductVersionCreate>;

export const ProductVersions = Type.Object({ items: Type.Array(ProductVersion) });

/** Spec 9: the product list is fetched 10000 at a time. */
export const ProductListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 10_000 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    sort: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z]+$' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    resourceType: Type.Optional(ResourceType),
  },
  { additionalProperties: false },
);
export type ProductListQuery = Static<typeof ProductListQuery>;

export const ProductCountQuery = Type.Object(
  { search: Type.Optional(Type.String({ maxLength: 200 })), resourceType: Type.Optional(ResourceType) },
  { additionalProperties: false },
);
export type ProductCountQuery = Static<typeof ProductCountQuery>;

// ---- Licences ----

export const ProductSummary = Type.Object({
  id: uuid,
  code: Type.String(),
  name: Type.String(),
  resourceType: ResourceType,
});

export const DeviceLicenseCounts = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  available: Type.Integer({ minimum: 0 }),
  active: Type.Integer({ minimum: 0 }),
  expired: Type.Integer({ minimum: 0 }),
});
export type DeviceLicenseCounts = Static<typeof DeviceLicenseCounts>;

export const License = Type.Object({
  id: uuid,
  licenseCode: Type.String(),
  /** The holder. */
  organizationId: uuid,
  organizationName: Type.String(),
  /** The dealer that issued it. */
  issuerOrganizationId: nullable(uuid),
  issuerOrganizationName: nullable(Type.String()),
  product: ProductSummary,
  productVersion: Type.Integer({ minimum: 1 }),
  /** What one licence unit of that version grants and costs. */
  grant: ProductVersion,
  quantity: Type.Integer({ minimum: 1, description: 'licence units' }),
  /** quantity × grant.quantity: units of the resource the licence grants. */
  allowance: Type.Integer({ minimum: 0 }),
  /** quantity × grant.priceMinor: what one term costs, integer minor units of grant.currency. */
  termPriceMinor: Type.Integer({ minimum: 0 }),
  status: LicenseStatus,
  autorenew: Type.Boolean(),
  activatedAt: nullable(dateTime),
  expiresAt: nullable(dateTime),
  /** devices products: the device licences (activation keys) that came with it. */
  deviceLicenses: DeviceLicenseCounts,
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type License = Static<typeof License>;
export const LicensePage = Paged(License);

/** Spec 9: licences 200 a page, newest first. */
export const LicenseListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 200 })),
    search: Type.Optional(Type.String({ maxLength: 200, description: 'matches the licence code' })),
    sort: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z]+$' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    status: Type.Optional(LicenseStatus),
  },
  { additionalProperties: false },
);
export type LicenseListQuery = Static<typeof LicenseListQuery>;

/** Spec 9: the count call is made with page size 1000 (accepted, it does not change the count). */
export const LicenseCountQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(LicenseStatus),
  },
  { additionalProperties: false },
);
export type LicenseCountQuery = Static<typeof LicenseCountQuery>;

export const LicenseUpdate = Type.Object(
  { autorenew: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type LicenseUpdate = Static<typeof LicenseUpdate>;

export const AutorenewBody = Type.Object({ autorenew: Type.Boolean() }, { additionalProperties: false });
export type AutorenewBody = Static<typeof AutorenewBody>;

export const LicenseCode = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'a licence code, for example LIC-7KQM-3XRT-W9HC (case and surrounding spaces do not matter)',
});

export const ValidateQuery = Type.Object({ licenseCode: LicenseCode }, { additionalProperties: false });
export type ValidateQuery = Static<typeof ValidateQuery>;

export const Validation = Type.Object({
  valid: Type.Boolean({ description: 'ISSUED (can be activated) or ACTIVE (in force)' }),
  reason: Type.Optional(Type.String()),
  status: nullable(LicenseStatus),
  product: nullable(ProductSummary),
  quantity: nullable(Type.Integer()),
  expiresAt: nullable(dateTime),
});
export type Validation = Static<typeof Validation>;

export const ActivationBody = Type.Object({ licenseCode: LicenseCode }, { additionalProperties: false });
export type ActivationBody = Static<typeof ActivationBody>;

export const ExpirationDate = Type.Object({
  expirationDate: nullable(dateTime),
  licenseId: nullable(uuid),
});
export type ExpirationDate = Static<typeof ExpirationDate>;

export const ChargeResult = Type.Object({
  invoiceId: uuid,
  status: literals(['PAID', 'OPEN', 'FAILED'] as const),
  amountMinor: Type.Integer({ minimum: 0 }),
  currency: Type.String(),
});

/** charge is null when the term costs nothing (price 0). */
export const Renewal = Type.Object({ license: License, charge: nullable(ChargeResult) });
export type Renewal = Static<typeof Renewal>;

// ---- Dealer ----

export const Client = Type.Object({
  id: uuid,
  resourceId: Type.String(),
  name: Type.String(),
  iotEnabled: Type.Boolean(),
  vpnEnabled: Type.Boolean(),
  dealer: Type.Boolean(),
  hasOwnResources: Type.Boolean(),
  createdAt: dateTime,
  licenseCount: Type.Integer({ minimum: 0 }),
  activeLicenseCount: Type.Integer({ minimum: 0 }),
  deviceCount: Type.Integer({ minimum: 0, description: 'devices of the client organization' }),
});
export type Client = Static<typeof Client>;
export const ClientPage = Paged(Client);

export const ClientListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    sort: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z]+$' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  },
  { additionalProperties: false },
);
export type ClientListQuery = Static<typeof ClientListQuery>;

export const ClientCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    iotEnabled: Type.Optional(Type.Boolean()),
    vpnEnabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ClientCreate = Static<typeof ClientCreate>;

/** What a client holds of one resource type: the allowance of its ACTIVE licences and the metered use. */
export const ClientResource = Type.Object({
  resourceType: ResourceType,
  allowance: Type.Integer({ minimum: 0 }),
  used: Type.Integer(),
});

export const ClientDetail = Type.Object({
  client: Client,
  licenses: Type.Array(License),
  deviceLicenses: DeviceLicenseCounts,
  resources: Type.Array(ClientResource),
});
export type ClientDetail = Static<typeof ClientDetail>;

export const IssueLicense = Type.Object(
  {
    productId: uuid,
    quantity: Type.Integer({ minimum: 1, maximum: 1000, description: 'licence units' }),
    activate: Type.Optional(
      Type.Boolean({ description: 'ACTIVE at once (the term starts now) instead of ISSUED' }),
    ),
    autorenew: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type IssueLicense = Static<typeof IssueLicense>;

export const IssuedLicenseListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 200 })),
    search: Type.Optional(Type.String({ maxLength: 200, description: 'licence code or client name' })),
    sort: Type.Optional(Type.String({ maxLength: 40, pattern: '^[A-Za-z]+$' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    status: Type.Optional(LicenseStatus),
    clientId: Type.Optional(uuid),
  },
  { additionalProperties: false },
);
export type IssuedLicenseListQuery = Static<typeof IssuedLicenseListQuery>;

export const Account = Type.Object({
  organizationId: uuid,
  name: Type.String(),
  dealer: Type.Boolean(),
  hasOwnResources: Type.Boolean(),
  inAppPurchases: Type.Boolean(),
});
export type Account = Static<typeof Account>;

export const AccountUpdate = Type.Object(
  {
    dealer: Type.Optional(Type.Boolean()),
    hasOwnResources: Type.Optional(Type.Boolean()),
    inAppPurchases: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AccountUpdate = Static<typeof AccountUpdate>;

export const LicenseCreateQuery = Type.Object(
  {
    by: Type.String({
      minLength: 1,
      maxLength: 80,
      description:
        'the DEALER organization (id or resourceId) that issues the licence: its product, its permission token',
    }),
  },
  { additionalProperties: false },
);

export const AccountUpdateQuery = Type.Object(
  {
    by: Type.String({
      minLength: 1,
      maxLength: 80,
      description: 'the ANCESTOR organization (id or resourceId) whose permission token makes the change',
    }),
  },
  { additionalProperties: false },
);

// ---- Subscription history and trial ----

export const HistoryQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive' })),
    licenseId: Type.Optional(uuid),
    event: Type.Optional(LicenseEvent),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

export const HistoryEntry = Type.Object({
  id: Type.Integer(),
  licenseId: nullable(uuid),
  licenseCode: nullable(Type.String()),
  productName: nullable(Type.String()),
  event: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown()),
  at: dateTime,
});
export type HistoryEntry = Static<typeof HistoryEntry>;
export const HistoryPage = Paged(HistoryEntry);

export const TRIAL_DAYS = 30;

export const TrialExpiration = Type.Object({
  /** No ACTIVE licence: the organization runs on the 30-day trial that started at its creation. */
  onTrial: Type.Boolean(),
  trialStartedAt: dateTime,
  trialExpiresAt: dateTime,
  expired: Type.Boolean({ description: 'on trial and the trial is over' }),
  daysLeft: Type.Integer({ minimum: 0 }),
});
export type TrialExpiration = Static<typeof TrialExpiration>;
