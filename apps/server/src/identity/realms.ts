import { eq } from 'drizzle-orm';
import { createLocalJWKSet, type JWK, type JWTVerifyGetKey } from 'jose';
import type Provider from 'oidc-provider';
import { baseOrigin, type Config, realmIssuer, realmOrigin } from '../config.ts';
import type { Db } from '../db/index.ts';
import { realms } from '../db/schema.ts';
import { installSecret, publicJwk, realmSigningKeys } from './keys.ts';
import { createRealmProvider } from './provider.ts';

export type RealmRuntime = {
  name: string;
  displayName: string;
  issuer: string;
  origin: string;
  provider: Provider;
  signingKey: JWK;
  jwks: JWTVerifyGetKey;
};

type PublicUrlConfig = Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain'>;

/** The realms of this installation: one oidc-provider instance each, created on first use and kept. */
export class RealmRegistry {
  readonly #db: Db;
  readonly #config: PublicUrlConfig;
  readonly #runtimes = new Map<string, Promise<RealmRuntime>>();

  constructor(db: Db, config: PublicUrlConfig) {
    this.#db = db;
    this.#config = config;
  }

  issuerOf(realm: string): string {
    return realmIssuer(this.#config, realm);
  }

  /** The realm named by an issuer URL of this server, if it has that exact form. */
  realmOfIssuer(issuer: string): string | undefined {
    const match = /\/auth\/realms\/([^/]+)$/.exec(issuer);
    const realm = match?.[1];
    return realm && this.issuerOf(realm) === issuer ? realm : undefined;
  }

  async get(name: string): Promise<RealmRuntime | undefined> {
    const cached = this.#runtimes.get(name);
    if (cached) return cached;
    const [row] = await this.#db.select().from(realms).where(eq(realms.name, name));
    if (!row) return undefined;
    const runtime = this.#start(row.name, row.displayName);
    this.#runtimes.set(name, runtime);
    runtime.catch(() => this.#runtimes.delete(name));
    return runtime;
  }

  async create(name: string, displayName: string): Promise<RealmRuntime> {
    await this.#db.insert(realms).values({ name, displayName }).onConflictDoNothing();
    const runtime = await this.get(name);
    if (!runtime) throw new Error(`realm ${name} was not stored`);
    return runtime;
  }

  async #start(name: string, displayName: string): Promise<RealmRuntime> {
    const keys = await realmSigningKeys(this.#db, name);
    const cookieKey = await installSecret(this.#db, 'cookie-signing-key');
    const issuer = this.issuerOf(name);
    const origin = realmOrigin(this.#config, name);
    const provider = createRealmProvider({
      db: this.#db,
      realm: name,
      issuer,
      origin,
      baseOrigin: baseOrigin(this.#config),
      signingKeys: keys,
      cookieKeys: [cookieKey],
    });
    const signingKey = keys[0];
    if (!signingKey) throw new Error(`realm ${name} has no signing key`);
    return {
      name,
      displayName,
      issuer,
      origin,
      provider,
      signingKey,
      jwks: createLocalJWKSet({ keys: keys.map(publicJwk) }),
    };
  }
}

export const REALM_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
