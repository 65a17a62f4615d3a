import { mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { Repositories } from '@antares/db';

import type { Level2Stage } from '../filters/level2.ts';
import type { GwMatcher } from '../gw/association.ts';
import type { IngestStats } from '../ingest/ingest-batch.ts';
import { formatIngestSummary, ingestFiles } from '../ingest/ingest-files.ts';
import { Poller } from '../sinks/poller.ts';
import type { SchemaSource } from '../sources/schema-sources.ts';
import type { WatchMatcher } from '../stages/watch-match.ts';

/** Alert files the inbox takes; anything else (e.g. `name.avro.part` while it is being written) waits. */
const ALERT_FILE = /\.avro(\.gz)?$/;

export interface InboxOptions {
  pollMs?: number;
  level2?: Level2Stage;
  watch?: WatchMatcher;
  gw?: GwMatcher;
  /** Writer schemas of Confluent-framed Rubin records (alertSchemaSource). */
  schemas?: SchemaSource;
  log?: (line: string) => void;
}

/**
 * A drop folder for a running server: alert files written into it (written under another name, then
 * renamed, so a half-written file is never read) are ingested one at a time, Level 2 runs on the loci
 * they update, and each file is moved to `done/`, or to `failed/` with the reason beside it. Files
 * left in the folder by a crash are simply ingested again at the next start (ingestion is idempotent).
 */
export class InboxWatcher {
  private readonly poller: Poller;
  private readonly done: string;
  private readonly failed: string;

  constructor(
    private readonly repos: Repositories,
    readonly dir: string,
    private readonly options: InboxOptions = {},
  ) {
    this.done = path.join(dir, 'done');
    this.failed = path.join(dir, 'failed');
    this.poller = new Poller(
      () => this.scanOnce(),
      options.pollMs ?? 2000,
      (error) => this.log(`inbox: ${error.message}`),
    );
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** Ingests what is in the folder now; returns how many files it took. */
  async scanOnce(): Promise<number> {
    for (const dir of [this.dir, this.done, this.failed]) mkdirSync(dir, { recursive: true });
    const files = readdirSync(this.dir)
      .filter((name) => ALERT_FILE.test(name) && statSync(path.join(this.dir, name)).isFile())
      .sort();
    if (files.length === 0) return 0;
    // Filters enabled or disabled since the last batch take effect now.
    await this.options.level2?.refresh();
    for (const name of files) {
      if (this.poller.isStopped) break;
      const file = path.join(this.dir, name);
      try {
        const stats = await ingestFiles(this.repos, [file], {
          level2: this.options.level2,
          watch: this.options.watch,
          gw: this.options.gw,
          schemas: this.options.schemas,
        });
        if (stats.packetsRead === 0 && stats.undecodable.length > 0) {
          throw new Error(`no alert could be decoded: ${stats.undecodable.map((u) => `record ${u.index}: ${u.reason}`).join('; ')}`);
        }
        renameSync(file, path.join(this.done, name));
        // Read back by whoever dropped the file (an HTTP upload reports it as its status).
        writeFileSync(path.join(this.done, `${name}.summary.json`), `${JSON.stringify(summaryOf(stats))}\n`);
        this.log(`inbox: ingested ${name}\n${formatIngestSummary(stats)}`);
      } catch (error) {
        renameSync(file, path.join(this.failed, name));
        writeFileSync(path.join(this.failed, `${name}.error.txt`), `${(error as Error).stack ?? String(error)}\n`);
        this.log(`inbox: ${name} failed: ${(error as Error).message}`);
      }
    }
    return files.length;
  }

  private log(line: string): void {
    (this.options.log ?? console.log)(line);
  }
}

/** An ingestion's counts, with the first reasons for undecodable records (a file may hold millions). */
function summaryOf(stats: IngestStats): Record<string, unknown> {
  return {
    packets_read: stats.packetsRead + stats.undecodable.length,
    packets_stored: stats.packetsStored,
    already_ingested: stats.duplicates,
    rejected: stats.rejected,
    undecodable: stats.undecodable.length,
    undecodable_examples: stats.undecodable.slice(0, 10).map((u) => ({ index: u.index, reason: u.reason })),
    alerts_stored: stats.alertsStored,
    loci_created: stats.lociCreated,
    loci_updated: stats.lociUpdated,
  };
}
