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

export const RealmEntry = Type.Object({
  name: Type.String(),
  displayName: Type.String(),
  url: Type.String(),
});
export type RealmEntry = Static<typeof RealmEntry>;

export const LoginInfoQuery = Type.Object({ hostname: Type.String({ minLength: 1, maxLength: 253 }) });
export const LoginInfo = Type.Object({ realm: Type.String(), displayName: Type.String() });
export type LoginInfo = Static<typeof LoginInfo>;

export const AgreementType = Type.Union([
  Type.Literal('TERM'),
  Type.Literal('PRIVACY'),
  Type.Literal('MAINTENANCE'),
]);
export const Agreement = Type.Object({
  id: Type.String({ format: 'uuid' }),
  serviceName: Type.String(),
  type: AgreementType,
  version: Type.String(),
  title: Type.String(),
  url: Type.String(),
  publishedAt: Type.String({ format: 'date-time' }),
});
export type Agreement = Static<typeof Agreement>;
export const ServiceNameQuery = Type.Object({ serviceName: Type.String({ minLength: 1, maxLength: 60 }) });
export const AgreementCheck = Type.Object({ pending: Type.Array(Agreement) });
export const AgreementAccept = Type.Object(
  { ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 20 }) },
  { additionalProperties: false },
);

export const UserPreference = Type.Object({
  id: Type.String({ format: 'uuid' }),
  username: Type.String(),
  serviceName: Type.String(),
  property: Type.String(),
  value1: Type.String(),
});
export type UserPreference = Static<typeof UserPreference>;
const preferenceKey = { minLength: 1, maxLength: 80, pattern: '^[A-Za-z0-9_.-]+$' };
export const UserPreferenceCreate = Type.Object(
  {
    serviceName: Type.String(preferenceKey),
    property: Type.String(preferenceKey),
    value1: Type.String({ maxLength: 4000 }),
  },
  { additionalProperties: false },
);
export const UserPreferenceValue = Type.Object(
  { value1: Type.String({ maxLength: 4000 }) },
  { additionalProperties: false },
);
export const UserPreferencePath = Type.Object({
  user: Type.String({ minLength: 1, maxLength: 254 }),
  service: Type.String(preferenceKey),
  prop: Type.String(preferenceKey),
});
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 80 }) });

export const Account = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  locale: Type.Union([Type.String(), Type.Null()]),
  credentials: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.Union([Type.Literal('password'), Type.Literal('otp')]),
    }),
  ),
  sessions: Type.Array(
    Type.Object({
      id: Type.String(),
      startedAt: Type.String({ format: 'date-time' }),
      current: Type.Boolean(),
    }),
  ),
});
export type Account = Static<typeof Account>;
export const Locale = Type.Union([
  Type.Literal('en-US'),
  Type.Literal('de-DE'),
  Type.Literal('es-ES'),
  Type.Literal('fr-FR'),
  Type.Literal('it-IT'),
]);
export const AccountUpdate = Type.Object(
  {
    firstName: Type.Optional(Type.String({ maxLength: 80 })),
    lastName: Type.Optional(Type.String({ maxLength: 80 })),
    locale: Type.Optional(Locale),
  },
  { additionalProperties: false },
);
export type AccountUpdate = Static<typeof AccountUpdate>;

export const SelfOnboarding = Type.Object(
  {
    agreementsServiceName: Type.String({ minLength: 1, maxLength: 60 }),
    organizationName: Type.String({ minLength: 2, maxLength: 120 }),
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 200 }),
    firstName: Type.String({ minLength: 1, maxLength: 80 }),
    lastName: Type.String({ minLength: 1, maxLength: 80 }),
    acceptedAgreementIds: Type.Array(Type.String({ format: 'uuid' }), { maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type SelfOnboarding = Static<typeof SelfOnboarding>;
export const SelfOnboardingResult = Type.Object({
  organizationId: Type.String({ format: 'uuid' }),
  resourceId: Type.String(),
});

export const StatusIssueType = Type.Union([Type.Literal('incident'), Type.Literal('maintenance')]);
export const StatusIssue = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: StatusIssueType,
  status: Type.String(),
  title: Type.String(),
  date: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type StatusIssue = Static<typeof StatusIssue>;
export const StatusIssueCreate = Type.Object(
  {
    type: StatusIssueType,
    status: Type.String({ minLength: 1, maxLength: 40 }),
    title: Type.String({ minLength: 1, maxLength: 200 }),
    date: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type StatusIssueCreate = Static<typeof StatusIssueCreate>;

export * from './core-api-keys.ts';
export * from './core-apps.ts';
export * from './core-clients.ts';
export * from './core-device-groups.ts';
export * from './core-groups.ts';
export * from './core-model-paths.ts';
export * from './core-organization-admin.ts';
export * from './core-roles.ts';
export * from './core-security-policies.ts';
export * from './core-users.ts';
