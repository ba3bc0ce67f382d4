import { type Static, Type } from 'typebox';

export const Instance = Type.Object({
  product: Type.String(),
  version: Type.String(),
  realm: Type.Optional(Type.String()),
});
export type Instance = Static<typeof Instance>;

export const Organization = Type.Object({
  id: Type.String({ format: 'uuid' }),
  resourceId: Type.String(),
  name: Type.String(),
  parentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  iotEnabled: Type.Boolean(),
  vpnEnabled: Type.Boolean(),
  dealer: Type.Boolean(),
  hasOwnResources: Type.Boolean(),
});
export type Organization = Static<typeof Organization>;

export const OrganizationUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    iotEnabled: Type.Optional(Type.Boolean()),
    vpnEnabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type OrganizationUpdate = Static<typeof OrganizationUpdate>;

export const OrganizationParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
});

export const OrganizationUser = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  enabled: Type.Boolean(),
  passwordChangeInvitation: Type.Boolean(),
  groupPoliciesEnabled: Type.Boolean(),
});
export type OrganizationUser = Static<typeof OrganizationUser>;
