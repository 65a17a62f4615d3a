import { type Kysely, sql } from 'kysely';

import type { CutoutPacks } from '../cutout-packs.ts';
import type { FilterFileStore } from '../filter-file-store.ts';
import type { Database } from '../schema.ts';
import { AlertPartitionRepository } from './alert-partitions.ts';
import { AlertRepository } from './alerts.ts';
import { AnnotationRepository } from './annotations.ts';
import { AnnouncementRepository } from './announcements.ts';
import { BacktestRepository } from './backtests.ts';
import { CatalogRepository } from './catalogs.ts';
import { ChatOutboxRepository } from './chat-outbox.ts';
import { FilterBudgetRepository } from './filter-budgets.ts';
import { FilterFileRepository } from './filter-files.ts';
import { FilterRepository } from './filters.ts';
import { GravWaveRepository } from './grav-waves.ts';
import { Level2RunRepository } from './level2-runs.ts';
import { LocusRepository } from './loci.ts';
import { StreamRepository } from './streams.ts';
import { TagRepository } from './tags.ts';
import { ThumbnailRepository } from './thumbnails.ts';
import { RevokedTokenRepository, UserRepository } from './users.ts';
import { WatchListRepository } from './watch-lists.ts';

/** Every repository over one database handle (or one transaction). */
export class Repositories {
  readonly loci: LocusRepository;
  readonly alerts: AlertRepository;
  readonly alertPartitions: AlertPartitionRepository;
  readonly thumbnails: ThumbnailRepository;
  readonly users: UserRepository;
  readonly revokedTokens: RevokedTokenRepository;
  readonly annotations: AnnotationRepository;
  readonly announcements: AnnouncementRepository;
  readonly filters: FilterRepository;
  readonly filterFiles: FilterFileRepository;
  readonly tags: TagRepository;
  readonly watchLists: WatchListRepository;
  readonly chatOutbox: ChatOutboxRepository;
  readonly streams: StreamRepository;
  readonly catalogs: CatalogRepository;
  readonly gravWaves: GravWaveRepository;
  readonly level2Runs: Level2RunRepository;
  readonly backtests: BacktestRepository;
  readonly filterBudgets: FilterBudgetRepository;

  /**
   * `kind` picks the faster of two equivalent statements where the two databases differ. `cutoutPacks`:
   * the folder cutouts are written to and read from outside the database (ADR 0051), when configured.
   * `filterFileStore`: where filter data files are (ADR 0053).
   */
  constructor(
    readonly db: Kysely<Database>,
    readonly kind: 'pglite' | 'postgres' = 'pglite',
    readonly cutoutPacks?: CutoutPacks,
    readonly filterFileStore?: FilterFileStore,
  ) {
    this.loci = new LocusRepository(db);
    this.alerts = new AlertRepository(db, kind === 'postgres');
    this.alertPartitions = new AlertPartitionRepository(db);
    this.thumbnails = new ThumbnailRepository(db, kind === 'postgres', cutoutPacks);
    this.users = new UserRepository(db);
    this.revokedTokens = new RevokedTokenRepository(db);
    this.annotations = new AnnotationRepository(db);
    this.announcements = new AnnouncementRepository(db);
    this.filters = new FilterRepository(db);
    this.filterFiles = new FilterFileRepository(db, filterFileStore);
    this.tags = new TagRepository(db);
    this.watchLists = new WatchListRepository(db);
    this.chatOutbox = new ChatOutboxRepository(db);
    this.streams = new StreamRepository(db);
    this.catalogs = new CatalogRepository(db);
    this.gravWaves = new GravWaveRepository(db);
    this.level2Runs = new Level2RunRepository(db);
    this.backtests = new BacktestRepository(db);
    this.filterBudgets = new FilterBudgetRepository(db);
  }

  /**
   * Inside a transaction on a PostgreSQL server: its commit does not wait for the WAL flush. For
   * ingestion, which is idempotent: a crash can lose the last batches, and ingesting the same files
   * again restores them. The database itself stays consistent either way.
   */
  async deferCommitFlush(): Promise<void> {
    if (this.kind === 'postgres') await sql`SET LOCAL synchronous_commit = off`.execute(this.db);
  }

  /**
   * Before a batch is ingested: ANALYZE the locus table and each alert partition (migration 0017) that has
   * grown to twice its size at its last ANALYZE (and at least 1 MB). A database filling up from empty (a first start, a
   * benchmark) otherwise plans with the defaults of a never-analyzed table, whose guessed matches per
   * locus make `locus_id = ANY(...)` a scan of the whole alert table; the server's autovacuum comes a
   * minute or more later and PGlite has none. Sizes, not the statistics collector's row counts: PGlite
   * does not report those. Doubling keeps the total cost at about twice that of the last ANALYZE; a
   * large settled table is left to autovacuum. Returns the tables analyzed.
   */
  async refreshPlannerStatsIfGrown(): Promise<string[]> {
    const grown = await sql<{ relname: string }>`
      SELECT relname FROM pg_class
      WHERE (oid = 'locus'::regclass OR oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'alert'::regclass))
        AND pg_relation_size(oid) / current_setting('block_size')::int >= greatest(2 * relpages, 128)`.execute(this.db);
    for (const { relname } of grown.rows) await sql`ANALYZE ${sql.table(relname)}`.execute(this.db);
    return grown.rows.map((r) => r.relname);
  }

  /**
   * After a bulk load: fresh planner statistics of the loci and the alert partitions it changed
   * (result-count estimates depend on them; PGlite has no autovacuum to refresh them) and, on PGlite,
   * a checkpoint so that the write-ahead log is recycled instead of growing towards its 1 GB ceiling.
   * Only the tables whose size moved by a tenth since their last ANALYZE (or never analyzed): a night
   * ingested into a large archive touches a month or two of alerts and adds few loci, and ANALYZE
   * samples 30,000 rows of a table however little of it changed: `ANALYZE alert` sampled every month
   * again (12 s of a 22 s run at 10 M rows), `ANALYZE locus` at 1 M loci took 2.8 s of a 14 s run that
   * created none, after every file the inbox ingests. Returns the tables analyzed.
   */
  async afterBulkLoad(): Promise<string[]> {
    const changed = await sql<{ relname: string }>`
      SELECT relname FROM pg_class
      WHERE (oid = 'locus'::regclass OR oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'alert'::regclass))
        AND (reltuples < 0 OR abs(pg_relation_size(oid) / current_setting('block_size')::int - relpages) > 0.1 * relpages)`.execute(
      this.db,
    );
    for (const { relname } of changed.rows) await sql`ANALYZE ${sql.table(relname)}`.execute(this.db);
    if (this.kind === 'pglite') await sql`CHECKPOINT`.execute(this.db);
    return changed.rows.map((r) => r.relname);
  }

  /**
   * Inside a transaction: waits for, then holds until commit, the lock that orders the pipeline's
   * writes. Ingestion of one batch and Level 2 of the one before run at the same time; both update
   * loci, and taking this lock first keeps them from deadlocking on each other's rows. Ingestion holds it
   * shared (lockSkyRegions), so this exclusive hold waits for every ingest worker's batch. (PGlite has a
   * single connection: nothing runs at the same time there.)
   */
  async lockPipelineWrites(): Promise<void> {
    if (this.kind === 'postgres') await sql`SELECT pg_advisory_xact_lock(7411)`.execute(this.db);
  }

  /**
   * Inside an ingestion transaction: waits for, then holds until commit, the locks of the sky regions
   * (coarse HTM trixel ids, chosen by the pipeline) the batch can touch, plus a shared hold on the
   * pipeline lock. Batches of different regions then run at the same time (several ingest workers);
   * batches that share a region take turns, so two workers never create two loci for one object.
   * Level 2 and the watch lists still take the pipeline lock exclusively (lockPipelineWrites): they
   * wait for every ingesting batch and stop them all, as before. Region locks are taken in ascending id
   * order, one statement: a function scan of an array yields its elements in order, and each row's
   * lock is taken before the next row is read, so two batches can never each hold what the other
   * waits for. (PGlite has a single connection: nothing runs at the same time there.)
   */
  async lockSkyRegions(trixelIds: number[]): Promise<void> {
    if (this.kind !== 'postgres') return;
    await sql`SELECT pg_advisory_xact_lock_shared(7411)`.execute(this.db);
    const sorted = [...new Set(trixelIds)].sort((a, b) => a - b);
    if (sorted.length === 0) return;
    // Two-key locks (class 7412, trixel id) are a separate space from the one-key pipeline lock.
    await sql`SELECT pg_advisory_xact_lock(7412, t) FROM unnest(${sorted}::int[]) AS t`.execute(this.db);
  }

  /** Runs work in one transaction with repositories bound to it. */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new Repositories(trx, this.kind, this.cutoutPacks, this.filterFileStore)));
  }
}
