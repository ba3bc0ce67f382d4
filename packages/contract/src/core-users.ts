import { type Static, Type } from 'typebox';
import { PageQuery } from './common.ts';

const uuid = Type.String({ format: 'uuid' });
const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const email = Type.String({ format: 'email', minLength: 3, maxLength: 254 });
const personName = Type.String({ maxLength: 80 });

/** The languages the portal and its e-mails speak (spec 9). */
export const UserLocale = Type.Union([
  Type.Literal('en-US'),
  Type.Literal('de-DE'),
  Type.Literal('es-ES'),
  Type.Literal('fr-FR'),
  Type.Literal('it-IT'),
]);
export type UserLocale = Static<typeof UserLocale>;

/** A role or group as a list shows it. */
export const NamedRef = Type.Object({ id: uuid, name: Type.String() });
export type NamedRef = Static<typeof NamedRef>;

/** A member of an organization (spec 3 "User"), with the roles and groups they hold in that organization. */
export const OrganizationUser = Type.Object({
  id: uuid,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  locale: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  /** A password-change e-mail was sent and the password is not changed yet. */
  passwordChangeInvitation: Type.Boolean(),
  groupPoliciesEnabled: Type.Boolean(),
  /** Invited, but no password set yet. */
  invitationPending: Type.Boolean(),
  /**
   * The account belongs to no organization outside this one and its sub-organizations, so this organization's
   * administrators may change its e-mail, password, names, language and enabled state. false for an account that also
   * belongs to another organization: only its owner changes those (on their own account), and the PUT answers 403.
   */
  accountManaged: Type.Boolean(),
  requiredActions: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  /** Roles of this organization given to the user directly. */
  roles: Type.Array(NamedRef),
  /** Groups of this organization the user is a member of. */
  groups: Type.Array(NamedRef),
});
export type OrganizationUser = Static<typeof OrganizationUser>;

export const USER_SORT_FIELDS = ['email', 'firstName', 'lastName', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Paging, search (email, first or last name) and sort (email, firstName, lastName, createdAt; default email). */
export const UserListQuery = PageQuery;
export type UserListQuery = Static<typeof UserListQuery>;

export const OrganizationUsersParams = Type.Object({ org: orgParam });
export const OrganizationUserParams = Type.Object({ org: orgParam, id: uuid });
export const OrganizationUsernameParams = Type.Object({
  org: orgParam,
  name: Type.String({ minLength: 1, maxLength: 254 }),
});

export const UserInvite = Type.Object(
  {
    email,
    firstName: Type.Optional(personName),
    lastName: Type.Optional(personName),
    /** Roles of this organization to give the user directly. */
    roleIds: Type.Optional(Type.Array(uuid, { maxItems: 50, uniqueItems: true })),
    /** Groups of this organization to put the user in. */
    groupIds: Type.Optional(Type.Array(uuid, { maxItems: 50, uniqueItems: true })),
    /** The language of the invitation e-mail and the account (new accounts only). */
    locale: Type.Optional(UserLocale),
  },
  { additionalProperties: false },
);
export type UserInvite = Static<typeof UserInvite>;

/**
 * An existing account of the realm asked to join the organization (the answer 202 of an invitation). It is not a
 * member until its owner accepts; the roles and groups are given then, those that still exist. The account's names
 * are not shown: the account is not the organization's.
 */
export const OrganizationInvitation = Type.Object({
  id: uuid,
  email: Type.String(),
  /** The e-mail of the administrator who invited, while their account exists. */
  invitedBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  roles: Type.Array(NamedRef),
  groups: Type.Array(NamedRef),
});
export type OrganizationInvitation = Static<typeof OrganizationInvitation>;

export const OrganizationInvitationParams = Type.Object({ org: orgParam, id: uuid });

/** Oldest first, at most `pageSize` (default 50) per page. */
export const InvitationListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
  },
  { additionalProperties: false },
);
export type InvitationListQuery = Static<typeof InvitationListQuery>;

/** An invitation to join an organization, as the invited account's owner sees it. */
export const AccountInvitation = Type.Object({
  id: uuid,
  organization: Type.Object({ id: uuid, resourceId: Type.String(), name: Type.String() }),
  /** Name (or e-mail) of the administrator who invited, while their account exists. */
  invitedBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type AccountInvitation = Static<typeof AccountInvitation>;

export const AccountInvitationParams = Type.Object({ id: uuid });

export const UserUpdate = Type.Object(
  {
    email: Type.Optional(email),
    password: Type.Optional(Type.String({ minLength: 8, maxLength: 200 })),
    /** true sends the user an e-mail with a link to set a new password. */
    passwordChangeInvitation: Type.Optional(Type.Boolean()),
    groupPoliciesEnabled: Type.Optional(Type.Boolean()),
    enabled: Type.Optional(Type.Boolean()),
    firstName: Type.Optional(personName),
    lastName: Type.Optional(personName),
    locale: Type.Optional(UserLocale),
  },
  { additionalProperties: false },
);
export type UserUpdate = Static<typeof UserUpdate>;

/** Deep search: the caller's organization and every sub-organization below it. */
export const UserDeepSearchQuery = Type.Object(
  {
    search: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
  },
  { additionalProperties: false },
);
export type UserDeepSearchQuery = Static<typeof UserDeepSearchQuery>;

export const DeepSearchUser = Type.Object({
  id: uuid,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  enabled: Type.Boolean(),
  organization: NamedRef,
});
export type DeepSearchUser = Static<typeof DeepSearchUser>;

export const UserNameParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 254 }) });
export const UserExists = Type.Object({ exists: Type.Boolean() });

/** The caller's own account. */
export const MyUser = Type.Object({
  id: uuid,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  locale: Type.Union([Type.String(), Type.Null()]),
  enabled: Type.Boolean(),
  groupPoliciesEnabled: Type.Boolean(),
});
export type MyUser = Static<typeof MyUser>;

/** A security policy group assigned to a user. */
export const UserSecurityPolicy = Type.Object({
  id: uuid,
  name: Type.String(),
  description: Type.String(),
});
export type UserSecurityPolicy = Static<typeof UserSecurityPolicy>;

const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const UserSecurityPoliciesParams = Type.Object({
  org: orgParam,
  id: uuid,
  ids: Type.String({
    pattern: `^${UUID_PATTERN}(,${UUID_PATTERN}){0,99}$`,
    description: 'security policy ids, comma-joined',
  }),
});
