// Security policy groups (spec 3): assignable to users and devices; a group may contain nested groups.
import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

export const SecurityPolicyRules = Type.Object(
  {
    allowedIpRanges: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 100,
      description: 'CIDR ranges (IPv4 or IPv6, e.g. 10.0.0.0/8) or single addresses; empty means anywhere',
    }),
    requireTotp: Type.Boolean(),
    maxSessionMinutes: Type.Integer({
      minimum: 0,
      maximum: 1440,
      description: 'longest session in minutes; 0 means the realm default',
    }),
  },
  { additionalProperties: false },
);
export type SecurityPolicyRules = Static<typeof SecurityPolicyRules>;

export const SecurityPolicy = Type.Object({
  id: Type.String({ format: 'uuid' }),
  organizationId: Type.String({ format: 'uuid' }),
  parentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  rules: SecurityPolicyRules,
  deviceCount: Type.Integer(),
  userCount: Type.Integer(),
  childCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type SecurityPolicy = Static<typeof SecurityPolicy>;

export const SecurityPolicyPage = Paged(SecurityPolicy);
export const SecurityPolicyListQuery = PageQuery;

export const SecurityPolicyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    parentId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
    rules: Type.Optional(SecurityPolicyRules),
  },
  { additionalProperties: false },
);
export type SecurityPolicyCreate = Static<typeof SecurityPolicyCreate>;

export const SecurityPolicyUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    parentId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
    rules: Type.Optional(SecurityPolicyRules),
  },
  { additionalProperties: false },
);
export type SecurityPolicyUpdate = Static<typeof SecurityPolicyUpdate>;

export const SecurityPolicyParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: Type.String({ format: 'uuid' }),
});

export const SecurityPolicyDeviceParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: Type.String({ format: 'uuid' }),
  dev: Type.String({ format: 'uuid' }),
});

export const SecurityPolicyDevice = Type.Object({
  id: Type.String({ format: 'uuid' }),
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  serialNumber: Type.String(),
});
export type SecurityPolicyDevice = Static<typeof SecurityPolicyDevice>;
