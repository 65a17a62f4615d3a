// One ingest worker of `npm run bench -- ingest --workers N` (a child process, as a second
// `antares ingest` would be): ingests its files into the database and reports when it started and ended,
// with the machine's busy CPU seconds then.
import { openDatabase, Repositories } from '@antares/db';
import { ingestFiles } from '@antares/pipeline';

import { machineBusySeconds } from './cpu-meter.ts';

const { url, files } = JSON.parse(process.argv[2]) as { url: string; files: string[] };
const opened = await openDatabase({ databaseUrl: url });
const started = Date.now();
const busyAtStart = machineBusySeconds();
const stats = await ingestFiles(new Repositories(opened.db, 'postgres'), files);
const ended = Date.now();
const busyAtEnd = machineBusySeconds();
await opened.close();
process.send?.({ started, ended, busyAtStart, busyAtEnd, stats }, () => process.exit(0));
