// Device groups of an organization (spec 2 /devices/groups; resource type devicegroups).
import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });

export const DeviceGroup = Type.Object({
  id: Type.String({ format: 'uuid' }),
  organizationId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  deviceCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type DeviceGroup = Static<typeof DeviceGroup>;

export const DeviceGroupPage = Paged(DeviceGroup);
export const DeviceGroupListQuery = PageQuery;

export const DeviceGroupCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type DeviceGroupCreate = Static<typeof DeviceGroupCreate>;

export const DeviceGroupUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type DeviceGroupUpdate = Static<typeof DeviceGroupUpdate>;

export const DeviceGroupParams = Type.Object({ org: orgParam, id: Type.String({ format: 'uuid' }) });

export const DeviceGroupDevicesParams = Type.Object({
  org: orgParam,
  id: Type.String({ format: 'uuid' }),
  devices: Type.String({
    minLength: 36,
    maxLength: 3700,
    pattern: '^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$',
    description: 'device ids joined by commas (at most 100)',
  }),
});

export const DeviceGroupMember = Type.Object({
  id: Type.String({ format: 'uuid' }),
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  serialNumber: Type.String(),
  status: Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]),
  tags: Type.Array(Type.String()),
});
export type DeviceGroupMember = Static<typeof DeviceGroupMember>;
export const DeviceGroupMemberPage = Paged(DeviceGroupMember);

export const DeviceGroupMembersChanged = Type.Object({
  group: DeviceGroup,
  /** How many of the named devices were added (or removed); the others already were (or were not) members. */
  changed: Type.Integer(),
});
export type DeviceGroupMembersChanged = Static<typeof DeviceGroupMembersChanged>;
