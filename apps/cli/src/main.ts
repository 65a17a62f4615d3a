import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Repositories } from '@antares/db';
import { loadConfig, UserService } from '@antares/server';
import { Command, InvalidArgumentError } from 'commander';

import {
  type CatalogImportOptions,
  ensureBuiltinCatalogs,
  runCatalogImport,
  runCatalogList,
  runCatalogRemove,
} from './commands/catalog.ts';
import { runCutoutsMoveToPacks } from './commands/cutouts.ts';
import { ensureDemoData, ensureWebBuilt } from './commands/demo.ts';
import { runFiltersEnv } from './commands/filters-env.ts';
import { type GwIngestOptions, runGwIngest } from './commands/gw.ts';
import { runIngest } from './commands/ingest.ts';
import { runPartitionsArchive, runPartitionsList, runPartitionsRestore } from './commands/partitions.ts';
import { runServe } from './commands/serve.ts';
import { describeDatabase, openConfiguredDatabase } from './database.ts';
import { createProgress } from './progress.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function integer(name: string, min: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number of at least ${min}`);
    return n;
  };
}

/** Runs a command's work on the configured database, closing it whatever happens. */
async function withRepos(config: ReturnType<typeof loadConfig>, work: (repos: Repositories) => Promise<unknown>): Promise<void> {
  const database = await openConfiguredDatabase(config);
  try {
    await work(database.repos);
  } finally {
    await database.close();
  }
}

const program = new Command('antares')
  .description('ANTARES alert broker: ingest survey alerts, serve the API and the web app')
  .showHelpAfterError();

program
  .command('start')
  .description('migrate, load the demo survey into an empty database, build the web app if needed, and serve')
  .option('--port <port>', 'port to listen on', integer('port', 1))
  .action(async (options: { port?: number }) => {
    // Unless ANTARES_PUBLIC_URL says otherwise, password-reset links point to this server's own URL.
    const config = loadConfig(process.env, options.port ? { port: options.port } : {}, { ownUrl: true });
    console.log(`Database: ${describeDatabase(config)}`);
    if (config.ownUrl && config.smtpUrl)
      console.log(`Password-reset mails link to ${config.ownUrl} (set ANTARES_PUBLIC_URL to the address users reach)`);
    const database = await openConfiguredDatabase(config);
    await ensureBuiltinCatalogs(database.repos);
    await ensureDemoData(database.repos, config.dataDir);
    ensureWebBuilt(REPO_ROOT);
    await runServe(config, database.repos, database.close);
  });

program
  .command('serve')
  .description('serve the API and the built web app')
  .option('--port <port>', 'port to listen on (default 8080)', integer('port', 1))
  .action(async (options: { port?: number }) => {
    const config = loadConfig(process.env, options.port ? { port: options.port } : {});
    const database = await openConfiguredDatabase(config);
    await runServe(config, database.repos, database.close);
  });

program
  .command('ingest')
  .description(
    'ingest ZTF and Rubin alert packets from Avro files (.avro, .avro.gz: containers, or one Confluent-framed Rubin alert each) or folders of them',
  )
  .argument('<paths...>', 'files or folders')
  .action(async (paths: string[]) => {
    const config = loadConfig();
    await withRepos(config, (repos) => runIngest(repos, paths, config));
  });

program
  .command('simulate')
  .description(
    'write a simulated survey: ZTF (schema 4.02) and, for some objects, Rubin (schema 10.0) Avro alerts with cutouts, deterministic per seed',
  )
  .requiredOption('--out <dir>', 'output folder')
  .option('--objects <n>', 'number of objects', integer('objects', 1), 2500)
  .option('--nights <k>', 'number of nights', integer('nights', 1), 25)
  .option('--seed <s>', 'random seed', integer('seed', 0), 1)
  .action(async (options: { out: string; objects: number; nights: number; seed: number }) => {
    const progress = createProgress('simulate', 1, 'packets');
    const { simulateSurvey } = await import('@antares/pipeline/simulate');
    const result = await simulateSurvey({
      objects: options.objects,
      nights: options.nights,
      seed: options.seed,
      outDir: options.out,
      onProgress: (done: number, total: number) => progress.update(done, '', total),
    });
    progress.stop();
    console.log(`wrote ${result.packets} alert packets of ${result.objects} objects in ${result.files.length} files to ${options.out}`);
  });

program
  .command('user')
  .description('manage user accounts')
  .command('create')
  .description('create a user account (operators; the web app has registration for everyone else)')
  .requiredOption('--username <username>', 'login name (4 to 64 characters)')
  .requiredOption('--email <email>', 'e-mail address (password resets go there)')
  .requiredOption('--password <password>', 'at least 8 characters with a number and an uppercase letter')
  .option('--name <name>', 'display name (default: the username)')
  .option('--admin', 'grant the admin flag', false)
  .option('--staff', 'grant the staff flag', false)
  .action(async (options: { username: string; email: string; password: string; name?: string; admin: boolean; staff: boolean }) => {
    const config = loadConfig();
    const database = await openConfiguredDatabase(config);
    try {
      const user = await new UserService(database.repos).register(
        { username: options.username, email: options.email, password: options.password, name: options.name ?? options.username },
        { admin: options.admin, staff: options.staff },
      );
      console.log(`created user ${user.username} (id ${user.user_id}${user.admin ? ', admin' : ''}${user.staff ? ', staff' : ''})`);
    } finally {
      await database.close();
    }
  });

const catalog = program.command('catalog').description('catalogs of known objects that loci are matched to');
catalog
  .command('import')
  .description('import (or replace) a catalog from a CSV, JSON or whitespace-separated text file, then re-match every locus')
  .requiredOption('--name <name>', 'catalog name (letters, digits, _ . -)')
  .requiredOption('--file <file>', 'the catalog file')
  .requiredOption(
    '--format <format>',
    'csv (with a header row), json (array or GeoJSON points), fits (a binary table) or txt (whitespace columns, see --columns)',
  )
  .option('--ra-col <column>', 'right ascension column (default ra, ra_deg, RA, ...)')
  .option('--dec-col <column>', 'declination column (default dec, dec_deg, DEC, ...)')
  .option('--id-col <column>', 'object id column (default id, name, ...)')
  .option('--name-col <column>', 'object name column')
  .option('--ra-unit <unit>', 'deg (default) or hours')
  .option('--columns <names>', 'txt format: the column names, comma-separated')
  .option('--radius <r>', 'extended sources: one match radius for every row', Number)
  .option('--radius-unit <unit>', 'arcsec (default), arcmin or deg')
  .option('--radius-col <column>', 'extended sources: a per-row match radius')
  .option('--diameter-col <column>', 'extended sources: a per-row size (major axis), halved into the radius')
  .action(async (options: CatalogImportOptions) => {
    if (!['csv', 'json', 'txt', 'fits'].includes(options.format)) throw new InvalidArgumentError('--format must be csv, json, fits or txt');
    if (options.radiusUnit && !['arcsec', 'arcmin', 'deg'].includes(options.radiusUnit))
      throw new InvalidArgumentError('--radius-unit must be arcsec, arcmin or deg');
    if (options.raUnit && !['deg', 'hours'].includes(options.raUnit)) throw new InvalidArgumentError('--ra-unit must be deg or hours');
    await withRepos(loadConfig(), (repos) => runCatalogImport(repos, options));
  });
catalog
  .command('list')
  .description('list the catalogs')
  .action(async () => {
    await withRepos(loadConfig(), (repos) => runCatalogList(repos));
  });
catalog
  .command('remove')
  .description('remove a catalog and re-match the loci that matched it')
  .argument('<name>')
  .action(async (name: string) => {
    await withRepos(loadConfig(), (repos) => runCatalogRemove(repos, name));
  });

program
  .command('filters')
  .description('user filters and the environment they run in')
  .command('env')
  .description(
    'start the filter interpreter (ANTARES_FILTER_PYTHON) inside the sandbox and list the modules filters can import there, with versions',
  )
  .option('--json', 'print what GET /v1/filter_environment serves', false)
  .action(async (options: { json: boolean }) => {
    await runFiltersEnv(loadConfig().filterLimits, options);
  });

const gw = program.command('gw').description('gravitational-wave events');
gw.command('ingest')
  .description('ingest IGWN alert JSON notices (or FITS sky maps with --id and --event-time) and associate alerts with them')
  .argument('<files...>', 'notice files (.json) or sky maps (.fits, .fits.gz)')
  .option('--id <gracedb_id>', 'FITS sky maps: the superevent id')
  .option('--event-time <iso>', 'FITS sky maps: when the event happened')
  .option('--type <type>', 'FITS sky maps: the notice type (default INITIAL)')
  .option('--window-days <days>', 'associate alerts observed this many days after the event (default 14)', Number)
  .action(async (files: string[], options: GwIngestOptions) => {
    await withRepos(loadConfig(), (repos) => runGwIngest(repos, files, options));
  });

const partitions = program.command('partitions').description("the alert table's monthly partitions (30 days of MJD each)");
partitions
  .command('list')
  .description('list the partitions, and the archived ones still in the database')
  .action(async () => {
    await withRepos(loadConfig(), (repos) => runPartitionsList(repos));
  });
partitions
  .command('archive')
  .description('detach the partitions that end on or before an MJD, keeping each as a table to dump and drop')
  .requiredOption('--before <mjd>', 'archive the months wholly before this MJD', Number)
  .action(async (options: { before: number }) => {
    if (!Number.isFinite(options.before)) throw new InvalidArgumentError('--before must be an MJD, for example 60800');
    const config = loadConfig();
    await withRepos(config, (repos) => runPartitionsArchive(repos, options.before, config.databaseUrl));
  });
partitions
  .command('restore')
  .description('attach an archived partition again')
  .argument('<name>', 'an archived partition, for example alert_archive_p60990')
  .action(async (name: string) => {
    await withRepos(loadConfig(), (repos) => runPartitionsRestore(repos, name));
  });

program
  .command('cutouts')
  .description('cutouts kept outside the database (ANTARES_CUTOUT_DIR)')
  .command('move-to-packs')
  .description('move the cutouts stored in the database to packs in ANTARES_CUTOUT_DIR; stop and run again at any point')
  .option('--batch <n>', 'cutouts per pack and per transaction', integer('batch', 1), 1000)
  .option('--vacuum', 'VACUUM FULL the cutout table afterwards, giving the space back to the disk (locks it while it runs)', false)
  .action(async (options: { batch: number; vacuum: boolean }) => {
    await withRepos(loadConfig(), (repos) => runCutoutsMoveToPacks(repos, options));
  });

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const config = loadConfig();
    const database = await openConfiguredDatabase(config);
    console.log(`Database migrated: ${describeDatabase(config)}`);
    await database.close();
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  // API errors (e.g. a taken username) carry their explanation in `detail`.
  const detail = (error as { detail?: string }).detail;
  console.error(`antares: ${detail ?? (error instanceof Error ? error.message : String(error))}`);
  process.exit(1);
});
