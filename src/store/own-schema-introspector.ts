import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * Postgres as svc uses it: Kysely's introspection sees svc's own schema only (the `schema` option, else the one
 * unqualified names resolve to, `current_schema()`).
 *
 * Kysely's Migrator asks whether its bookkeeping tables exist through `db.introspection`, and its Postgres
 * introspector lists every column of every table of every schema, several times per start, to keep the few rows in
 * ours. On a database other applications (or a test suite's schemas) share, each start got slower as the database
 * grew, and a schema another tenant dropped mid-query failed it ("schema … does not exist": the listing looks
 * schemas and tables up by name). `migrationTableSchema` only filters that listing afterwards, and the Migrator has
 * no other hook, so the dialect's own, `createIntrospector`, answers instead: everything else the Migrator does
 * (its tables, their contents, its lock, its errors) stays Kysely's. Skipping the Migrator when `kysely_migration`
 * already lists every migration would spare an up-to-date start only: a first start, and every start with a
 * migration to apply, would still go through the listing.
 */
export class OwnSchemaPostgresDialect extends PostgresDialect {
  readonly #schema: string | undefined;

  constructor(config: PostgresDialectConfig, schema: string | undefined) {
    super(config);
    this.#schema = schema;
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db, this.#schema);
  }
}

interface ColumnRow {
  schema: string;
  table: string;
  is_view: boolean;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  comment: string | null;
}

/** Kysely's Postgres introspection (the same metadata), of one schema. */
class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string | undefined,
  ) {}

  private get own() {
    return this.schema === undefined ? sql`current_schema()` : sql`${this.schema}`;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace where nspname = ${this.own}`.execute(
      this.db,
    );
    return rows;
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const kyselyTables = options.withInternalKyselyTables
      ? sql``
      : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`;
    // Only the schema's own rows reach the select list: its functions never look up another schema's objects.
    const { rows } = await sql<ColumnRow>`
      select ns.nspname as schema, c.relname as table, c.relkind = 'v' as is_view, a.attname as column,
        typ.typname as type, dtns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
        pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname) is not null as auto_incrementing,
        col_description(a.attrelid, a.attnum) as comment
      from pg_catalog.pg_namespace ns
      join pg_catalog.pg_class c on c.relnamespace = ns.oid
      join pg_catalog.pg_attribute a on a.attrelid = c.oid
      join pg_catalog.pg_type typ on typ.oid = a.atttypid
      join pg_catalog.pg_namespace dtns on dtns.oid = typ.typnamespace
      where ns.nspname = ${this.own} and c.relkind in ('r', 'v', 'p') and a.attnum > 0 and not a.attisdropped ${kyselyTables}
      order by c.relname, a.attnum`.execute(this.db);
    return tablesOf(rows);
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

function tablesOf(rows: ColumnRow[]): TableMetadata[] {
  const tables = new Map<string, TableMetadata>();
  for (const row of rows) {
    let table = tables.get(row.table);
    if (!table) tables.set(row.table, (table = { name: row.table, schema: row.schema, isView: row.is_view, columns: [] }));
    table.columns.push({
      name: row.column,
      dataType: row.type,
      dataTypeSchema: row.type_schema,
      isNullable: !row.not_null,
      hasDefaultValue: row.has_default,
      isAutoIncrementing: row.auto_incrementing,
      comment: row.comment ?? undefined,
    });
  }
  return [...tables.values()];
}
