import { type Static, Type } from 'typebox';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });

/** A role as a group shows it. */
export const UserGroupRole = Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() });
export type UserGroupRole = Static<typeof UserGroupRole>;

export const UserGroup = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  memberCount: Type.Integer(),
  roles: Type.Array(UserGroupRole),
});
export type UserGroup = Static<typeof UserGroup>;

const groupName = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
const groupDescription = Type.String({ maxLength: 1000 });

export const UserGroupCreate = Type.Object(
  { name: groupName, description: Type.Optional(groupDescription) },
  { additionalProperties: false },
);
export type UserGroupCreate = Static<typeof UserGroupCreate>;

export const UserGroupUpdate = Type.Object(
  { name: Type.Optional(groupName), description: Type.Optional(groupDescription) },
  { additionalProperties: false },
);
export type UserGroupUpdate = Static<typeof UserGroupUpdate>;

/** A member of a group with the role they carry inside it (spec 3: "members (each with a role)"). */
export const UserGroupMember = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.Union([UserGroupRole, Type.Null()]),
});
export type UserGroupMember = Static<typeof UserGroupMember>;

/** A member of one of the caller's groups, with the group it was found in. */
export const MyGroupMember = Type.Object({
  groupId: Type.String({ format: 'uuid' }),
  groupName: Type.String(),
  userId: Type.String({ format: 'uuid' }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  role: Type.Union([UserGroupRole, Type.Null()]),
});
export type MyGroupMember = Static<typeof MyGroupMember>;

export const UserGroupParams = Type.Object({ org: orgParam, id: Type.String({ format: 'uuid' }) });
export const UserGroupMemberParams = Type.Object({
  org: orgParam,
  id: Type.String({ format: 'uuid' }),
  user: Type.String({ format: 'uuid' }),
});
export const UserGroupRolesParams = Type.Object({
  org: orgParam,
  id: Type.String({ format: 'uuid' }),
  roles: Type.String({
    minLength: 36,
    maxLength: 3700,
    pattern: '^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$',
    description: 'role ids joined by commas',
  }),
});
export const UserGroupMemberQuery = Type.Object(
  {
    role: Type.Optional(
      Type.String({ format: 'uuid', description: 'the role the member carries in the group' }),
    ),
  },
  { additionalProperties: false },
);
