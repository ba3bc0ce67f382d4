// Organization administration (spec 7 Core "Organizations" and "Devices"): sub-organizations, import tokens and
// moves, the caller's grants, and the core device calls.
import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

const organizationName = Type.String({ minLength: 1, maxLength: 120 });

export const OrganizationCreate = Type.Object(
  {
    name: organizationName,
    iotEnabled: Type.Optional(
      Type.Boolean({
        description: "default: on for a top-level organization, the parent's flag for a sub-organization",
      }),
    ),
    vpnEnabled: Type.Optional(
      Type.Boolean({
        description: "default: on for a top-level organization, the parent's flag for a sub-organization",
      }),
    ),
  },
  { additionalProperties: false },
);
export type OrganizationCreate = Static<typeof OrganizationCreate>;

export const SubOrganizationQuery = Type.Object(
  {
    addDefaultRoles: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'give the new organization the Administrator and Operator roles',
      }),
    ),
    waitLicenseManager: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'accepted for compatibility; there is no licence manager to wait for yet, so it has no effect',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SubOrganizationListQuery = Type.Object(
  {
    recursive: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'every descendant (each with its parentId) instead of the direct children only',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportToken = Type.Object({
  token: Type.String({ description: 'shown once; only its SHA-256 hash is stored' }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type ImportToken = Static<typeof ImportToken>;

export const ImportTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const ImportTokenInfo = Type.Object({
  organization: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type ImportTokenInfo = Static<typeof ImportTokenInfo>;

export const MoveRequest = Type.Object(
  { organizationImportToken: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type MoveRequest = Static<typeof MoveRequest>;

export const MyIp = Type.Object({ ip: Type.String() });

export const OrganizationGrant = Type.Object({
  rsname: Type.String(),
  scopes: Type.Array(Type.String()),
  inverted: Type.Boolean(),
  conditions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  fields: Type.Optional(Type.Array(Type.String())),
  inherited: Type.Boolean({ description: 'carried in by INHERIT from a role of an ancestor organization' }),
});
export type OrganizationGrant = Static<typeof OrganizationGrant>;

export const OrganizationGrants = Type.Object({
  organizationId: Type.String({ format: 'uuid' }),
  member: Type.Boolean({ description: 'a direct member of the organization (not only through inheritance)' }),
  permissions: Type.Array(OrganizationGrant),
});
export type OrganizationGrants = Static<typeof OrganizationGrants>;

// Devices (the part of the device record identity and access administration needs).

export const CoreDevice = Type.Object({
  id: Type.String({ format: 'uuid' }),
  organizationId: Type.String({ format: 'uuid' }),
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  serialNumber: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  status: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type CoreDevice = Static<typeof CoreDevice>;

export const CoreDevicePage = Paged(CoreDevice);

export const DeviceListQuery = PageQuery;

export const DeviceSearchQuery = Type.Object(
  {
    q: Type.String({ maxLength: 200, description: 'matched against label, alias and serial number' }),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

export const DeviceParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: Type.String({ format: 'uuid' }),
});

export const DeviceLabelParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  label: Type.String({ minLength: 1, maxLength: 120 }),
});

const deviceTag = Type.String({ minLength: 1, maxLength: 60 });

export const CoreDevicePatch = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    alias: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    tags: Type.Optional(Type.Array(deviceTag, { maxItems: 50, uniqueItems: true })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type CoreDevicePatch = Static<typeof CoreDevicePatch>;
