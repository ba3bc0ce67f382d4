import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/index.ts';
import { organizations } from '../../src/db/schema.ts';
import { seedDemo } from '../../src/demo/seed.ts';
import { RealmRegistry } from '../../src/identity/realms.ts';
import { emptyTestDatabase } from '../support/server.ts';

// Instances of a cluster share one PostgreSQL; PGlite is one process's own database, so this runs in the PostgreSQL
// pass of the suite (scripts/test.sh sets TEST_DATABASE_URL there).
const adminUrl = process.env.TEST_DATABASE_URL;

describe.runIf(adminUrl)('instances starting together on an empty PostgreSQL database', () => {
  let databaseUrl = '';
  let dropDatabase = async () => {};

  beforeAll(async () => {
    ({ url: databaseUrl, drop: dropDatabase } = await emptyTestDatabase('edgeport_start'));
  });
  afterAll(() => dropDatabase());

  it('migrate once and seed the demo once', async () => {
    const databases = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl })));
    try {
      const config = { ...loadConfig({ EDGEPORT_DEMO: 'true', EDGEPORT_SAMPLES: 'false' }) };
      const logins = await Promise.all(
        databases.map((database) =>
          database.exclusive('demo-seed', () =>
            seedDemo(database.db, new RealmRegistry(database.db, config), config),
          ),
        ),
      );
      // One instance printed the demo's logins; the others found the realm already there.
      expect(logins.map((printed) => printed.length).sort()).toEqual([0, 0, 2]);
      const db = databases[0]?.db;
      const roots = await db
        ?.select({ n: count() })
        .from(organizations)
        .where(and(eq(organizations.realm, 'demo'), isNull(organizations.parentId)));
      expect(roots).toEqual([{ n: 1 }]);
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  });
});
