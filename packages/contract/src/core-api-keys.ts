import { type Static, Type } from 'typebox';

const uuid = Type.String({ format: 'uuid' });
const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });

/** A personal API key (spec 3 "API key: username"); the secret itself is shown only once, when created. */
export const ApiKey = Type.Object({
  id: uuid,
  name: Type.String(),
  /** The first characters of the secret, to recognise a key. */
  prefix: Type.String(),
  /** The e-mail of the user the key acts as. */
  username: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type ApiKey = Static<typeof ApiKey>;

/** The answer to creating a key: the only time its secret is shown. */
export const CreatedApiKey = Type.Object({ ...ApiKey.properties, secret: Type.String() });
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const ApiKeysParams = Type.Object({ org: orgParam });
export const ApiKeyParams = Type.Object({ org: orgParam, id: uuid });

export const ApiKeysQuery = Type.Object(
  {
    /** Whose keys (an e-mail); the caller's own when absent. */
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
  },
  { additionalProperties: false },
);
export type ApiKeysQuery = Static<typeof ApiKeysQuery>;

export const ApiKeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' }),
    /** Create the key for this member (an e-mail); needs UPDATE on users. The caller's own key when absent. */
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;
