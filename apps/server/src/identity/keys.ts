import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/index.ts';
import { installSecrets, signingKeys } from '../db/schema.ts';

/** Private signing JWKs of a realm; one RS256 key is generated and stored the first time a realm needs it. */
export async function realmSigningKeys(db: Db, realm: string): Promise<JWK[]> {
  const stored = await db.select().from(signingKeys).where(eq(signingKeys.realm, realm));
  if (stored.length > 0) return stored.map((row) => row.privateJwk as JWK);
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = {
    ...(await exportJWK(privateKey)),
    alg: 'RS256',
    use: 'sig',
    kid: randomBytes(12).toString('base64url'),
  };
  await db.insert(signingKeys).values({ kid: jwk.kid, realm, privateJwk: jwk }).onConflictDoNothing();
  // Another instance may have raced us: the stored set is the truth.
  const after = await db.select().from(signingKeys).where(eq(signingKeys.realm, realm));
  return after.map((row) => row.privateJwk as JWK);
}

export function publicJwk(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  return pub;
}

/** A named random secret of this installation (created once, shared by all instances through the database). */
export async function installSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(installSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(installSecrets).where(eq(installSecrets.name, name));
  if (!row) throw new Error(`install secret ${name} missing after insert`);
  return row.value;
}
