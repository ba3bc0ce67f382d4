import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/db/index.ts';

/** Table name -> hash of all its rows. */
export type Snapshot = Record<string, string>;

type Rows = { rows: Array<Record<string, unknown>> };

/**
 * oidc_payloads holds the login machinery's sessions, codes and grants, which change with every sign-in: its
 * content is left out, except the set of session ids, which only an account's own session calls may change.
 */
const LEFT_OUT = 'oidc_payloads';

let cachedQuery: { tables: string; query: string } | undefined;

async function tablesOf(db: Db): Promise<string[]> {
  const result = (await db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as unknown as Rows;
  return result.rows.map((row) => String(row.tablename)).filter((name) => name !== LEFT_OUT);
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * A hash of every row of every table of the public schema, in one round trip. Rows are ordered by their text form,
 * so the hash does not depend on physical order (PGlite and PostgreSQL agree).
 */
export async function snapshot(db: Db): Promise<Snapshot> {
  const tables = await tablesOf(db);
  const signature = tables.join(',');
  if (cachedQuery?.tables !== signature) {
    const parts = tables.map(
      (table) =>
        `select ${literal(table)} as name, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as hash from ${quote(table)} t`,
    );
    parts.push(
      `select ${literal(`${LEFT_OUT}(session ids)`)} as name, md5(coalesce(string_agg(t.type || ':' || t.id, ',' order by t.type, t.id), '')) as hash from ${quote(LEFT_OUT)} t where t.type = 'Session'`,
    );
    cachedQuery = { tables: signature, query: parts.join(' union all ') };
  }
  const result = (await db.execute(sql.raw(cachedQuery.query))) as unknown as Rows;
  return Object.fromEntries(result.rows.map((row) => [String(row.name), String(row.hash)]));
}

/** The tables whose content differs between two snapshots (empty when nothing changed). */
export function changedTables(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
