/**
 * A getter of one object per database handle, made on first use: what an ingest process keeps between
 * batches belongs to the database it came from (tests open many databases in one process).
 */
export function perDatabase<T>(make: () => T): (database: object) => T {
  const byDatabase = new WeakMap<object, T>();
  return (database) => {
    let value = byDatabase.get(database);
    if (value === undefined) byDatabase.set(database, (value = make()));
    return value;
  };
}
