import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresStore, postgresUrl } from '../../test/stores.js';

/**
 * Test files (and, in production, whatever else shares the database) create and drop schemas while
 * a store migrates: the migrator's look at its own tables must not read the others'
 * (db/schema-introspector.ts). Stores migrate here while another client keeps creating and dropping
 * schemas with tables, until every store has migrated.
 */
describe.runIf(postgresUrl)('migrations on PostgreSQL beside schemas that come and go', () => {
  it('every store migrates while other schemas are created and dropped', async () => {
    const churn = new pg.Client({ connectionString: postgresUrl });
    await churn.connect();
    let migrating = true;
    let churned = 0;
    const churning = (async () => {
      while (migrating) {
        const schema = `churn_${randomBytes(4).toString('hex')}`;
        await churn.query(`CREATE SCHEMA ${schema}`);
        await churn.query(`CREATE TABLE ${schema}.t (id serial primary key, v text)`);
        await churn.query(`ALTER TABLE ${schema}.t ADD COLUMN w integer`);
        await churn.query(`DROP SCHEMA ${schema} CASCADE`);
        churned += 1;
      }
    })();
    try {
      for (let round = 0; round < 3; round += 1) {
        const stores = await Promise.all([postgresStore.open(), postgresStore.open()]);
        await Promise.all(stores.map((store) => store.close()));
      }
    } finally {
      migrating = false;
      await churning;
      await churn.end();
    }
    expect(churned).toBeGreaterThan(0);
  });
});
