import { type AlertPartition, AlertPartitionError, type Repositories } from '@antares/db';

/**
 * `antares partitions`: the alert table's monthly partitions (ADR 0036). Archiving detaches the old
 * months and keeps each as a table of its own, which an operator dumps to cheaper storage and drops;
 * restoring attaches one again.
 */
export async function runPartitionsList(repos: Repositories): Promise<void> {
  const attached = await repos.alertPartitions.listAttached();
  const archived = await repos.alertPartitions.listArchived();
  console.log(`alert partitions (${attached.length}):`);
  for (const p of attached) console.log(`  ${describe(p)}`);
  if (archived.length > 0) {
    console.log(`archived, not in the alert table (${archived.length}):`);
    for (const p of archived) console.log(`  ${describe(p)}`);
  }
}

export async function runPartitionsArchive(repos: Repositories, beforeMjd: number, databaseUrl: string | undefined): Promise<void> {
  const archived = await repos.alertPartitions.archiveBefore(beforeMjd);
  if (archived.length === 0) {
    console.log(`no alert partition ends on or before MJD ${beforeMjd}`);
    return;
  }
  console.log(`archived ${archived.length} partition(s): their alerts left the alert table, loci keep their properties`);
  for (const p of archived) console.log(`  ${describe(p)}`);
  if (databaseUrl) {
    console.log('To keep them elsewhere, dump each and drop it, for example:');
    for (const p of archived) {
      console.log(
        `  pg_dump --table=${p.name} --format=custom --file=${p.name}.dump "${databaseUrl}" && psql "${databaseUrl}" -c 'DROP TABLE ${p.name}'`,
      );
    }
  } else {
    console.log('They stay in the embedded database, outside the alert table, until restored.');
  }
  console.log('Bring one back (after pg_restore if dropped) with: antares partitions restore <name>');
}

export async function runPartitionsRestore(repos: Repositories, name: string): Promise<void> {
  try {
    const restored = await repos.alertPartitions.restore(name);
    console.log(`restored ${name} as ${describe(restored)}`);
  } catch (error) {
    // Told as the command's error, without a stack: the message says what to do.
    if (error instanceof AlertPartitionError) throw Object.assign(error, { detail: error.message });
    throw error;
  }
}

function describe(p: AlertPartition): string {
  const rows = p.estimatedRows >= 0 ? `~${p.estimatedRows.toLocaleString('en-US')} rows` : 'not analyzed';
  return `${p.name}  MJD ${p.fromMjd}-${p.toMjd}  ${rows}  ${(p.bytes / 1e6).toFixed(1)} MB`;
}
