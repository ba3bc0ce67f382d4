// Service-account clients of an organization (machine-to-machine access); secrets are shown once, stored hashed.
import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

export const ServiceClient = Type.Object({
  id: Type.String({ format: 'uuid' }),
  /** The identifier the client authenticates with (its id). */
  clientId: Type.String(),
  organizationId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  hasSecret: Type.Boolean(),
  secretCreatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ServiceClient = Static<typeof ServiceClient>;

export const ServiceClientPage = Paged(ServiceClient);
export const ServiceClientListQuery = PageQuery;

export const ServiceClientCreate = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type ServiceClientCreate = Static<typeof ServiceClientCreate>;

export const ServiceClientParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: Type.String({ format: 'uuid' }),
});

export const ClientSecretInfo = Type.Object({
  clientId: Type.String(),
  hasSecret: Type.Boolean(),
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type ClientSecretInfo = Static<typeof ClientSecretInfo>;

export const ClientSecret = Type.Object({
  clientId: Type.String(),
  secret: Type.String({ description: 'shown once; only its SHA-256 hash is stored' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ClientSecret = Static<typeof ClientSecret>;
