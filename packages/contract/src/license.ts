// Spec 7 "Licence": device licences (activation keys) and device activation.
import { type Static, type TSchema, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const uuid = Type.String({ format: 'uuid' });
const dateTime = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const OrganizationParams = Type.Object({ org: orgParam });
export const DeviceLicenseParams = Type.Object({ org: orgParam, id: uuid });

export const DeviceLicenseStatus = Type.Union([
  Type.Literal('AVAILABLE'),
  Type.Literal('ACTIVE'),
  Type.Literal('EXPIRED'),
]);
export type DeviceLicenseStatus = Static<typeof DeviceLicenseStatus>;

export * from './values/license.ts';

export const ActivationKey = Type.String({
  minLength: 1,
  maxLength: 40,
  description: 'the activation key of a device licence, for example EP-7KQM-3XRT-W9HC',
});

export const LicensedDevice = Type.Object({ id: uuid, label: Type.String() });

export const DeviceLicense = Type.Object({
  id: uuid,
  status: DeviceLicenseStatus,
  activationKey: Type.String({
    description: 'masked except its last 4 characters unless the caller may CREATE devices',
  }),
  device: nullable(LicensedDevice),
  vpn: Type.Boolean(),
  autorenew: Type.Boolean(),
  activatedAt: nullable(dateTime),
  expiresAt: nullable(dateTime),
  createdAt: dateTime,
});
export type DeviceLicense = Static<typeof DeviceLicense>;
export const DeviceLicensePage = Paged(DeviceLicense);

export const DeviceLicenseListQuery = Type.Object(
  {
    ...PageQuery.properties,
    status: Type.Optional(DeviceLicenseStatus),
    vpn: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type DeviceLicenseListQuery = Static<typeof DeviceLicenseListQuery>;

export const ActivationKeyQuery = Type.Object(
  { activationKey: ActivationKey },
  { additionalProperties: false },
);

export const ActivationRequest = Type.Object(
  {
    activationKey: ActivationKey,
    label: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    presetId: Type.Optional(uuid),
    serialNumber: Type.Optional(Type.String({ maxLength: 120 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type ActivationRequest = Static<typeof ActivationRequest>;

export const ActivatedDevice = Type.Object({
  id: uuid,
  organizationId: uuid,
  label: Type.String(),
  serialNumber: Type.String(),
  description: Type.String(),
  presetId: nullable(uuid),
  createdAt: dateTime,
});

export const DeviceCredentials = Type.Object({
  username: Type.String({ description: 'the MQTT user name: the device id' }),
  password: Type.String({ description: 'the MQTT password; shown this once, only its hash is kept' }),
  mqttUrl: Type.String(),
  mqttWebSocketUrl: Type.String(),
});

export const EdgeTag = Type.Object({
  tag: Type.String(),
  path: Type.String(),
  type: Type.String(),
  unit: nullable(Type.String()),
  writable: Type.Boolean(),
});

/** What an edge device (or its gateway) is set up with; the password is not in it (it is in `credentials`). */
export const EdgeConfiguration = Type.Object({
  format: Type.Literal('edgeport-edge-config/1'),
  device: Type.Object({ id: uuid, label: Type.String(), organizationId: uuid }),
  mqtt: Type.Object({
    url: Type.String(),
    webSocketUrl: Type.String(),
    clientId: Type.String(),
    username: Type.String(),
    qos: Type.Integer(),
  }),
  topics: Type.Object({ data: Type.String(), setpoints: Type.String() }),
  payload: Type.Object({
    example: Type.Record(Type.String(), Type.Unknown()),
    description: Type.String(),
  }),
  preset: nullable(Type.Object({ id: uuid, name: Type.String() })),
  dataTags: Type.Array(EdgeTag),
  configuration: Type.Record(Type.String(), Type.Unknown()),
});
export type EdgeConfiguration = Static<typeof EdgeConfiguration>;

export const Activation = Type.Object({
  license: DeviceLicense,
  device: ActivatedDevice,
  credentials: DeviceCredentials,
  edgeConfiguration: EdgeConfiguration,
});
export type Activation = Static<typeof Activation>;

export const AutorenewRequest = Type.Object(
  {
    ids: Type.Array(uuid, { minItems: 1, maxItems: 200 }),
    autorenew: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AutorenewRequest = Static<typeof AutorenewRequest>;

export const AutorenewResult = Type.Object({ items: Type.Array(DeviceLicense) });

export const IssueRequest = Type.Object(
  {
    count: Type.Integer({ minimum: 1, maximum: 100 }),
    vpn: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type IssueRequest = Static<typeof IssueRequest>;

/**
 * Whether the caller may issue activation keys without a licence in the organization (POST /deviceLicenses): only
 * the realm's operator may. Everyone else activates the keys that come with a licence (a dealer's devices product).
 */
export const KeyIssuing = Type.Object({
  mayIssue: Type.Boolean(),
  /** Why not, when mayIssue is false. */
  reason: Type.Union([Type.String(), Type.Null()]),
});
export type KeyIssuing = Static<typeof KeyIssuing>;

export const IssuedLicenses = Type.Object({
  /** The new licences with their full activation keys. */
  items: Type.Array(DeviceLicense),
});
