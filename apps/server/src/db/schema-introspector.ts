import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  type TableMetadata,
  sql,
} from 'kysely';

/**
 * Kysely's PostgreSQL introspector reads every table of every schema and calls
 * `pg_get_serial_sequence` and `has_schema_privilege` on each: when another schema of the same
 * database is created, altered or dropped meanwhile, those calls fail ("schema … does not exist"),
 * and the migrator, which asks whether its own tables exist that way, fails a start. This dialect
 * answers from the store's own schema only (its search path's first, `current_schema()`), with
 * plain catalog reads: what runs beside it in the same database cannot fail it.
 */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

interface ColumnRow {
  table_schema: string;
  table_name: string;
  table_type: string;
  column_name: string | null;
  data_type: string | null;
  is_nullable: string | null;
  column_default: string | null;
}

class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ nspname: string }>`select nspname from pg_catalog.pg_namespace`.execute(this.db);
    return rows.map((row) => ({ name: row.nspname }));
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select t.table_schema, t.table_name, t.table_type, c.column_name, c.data_type, c.is_nullable, c.column_default
      from information_schema.tables t
      left join information_schema.columns c on c.table_schema = t.table_schema and c.table_name = t.table_name
      where t.table_schema = current_schema()
      order by t.table_name, c.ordinal_position`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table_name.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table_name);
      if (!table) {
        table = { name: row.table_name, schema: row.table_schema, isView: row.table_type === 'VIEW', columns: [] };
        tables.set(row.table_name, table);
      }
      if (row.column_name === null) continue;
      table.columns.push({
        name: row.column_name,
        dataType: row.data_type ?? '',
        isNullable: row.is_nullable === 'YES',
        isAutoIncrementing: row.column_default?.startsWith('nextval(') ?? false,
        hasDefaultValue: row.column_default !== null,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
