import { benchApi } from './api.ts';
import { benchBacktest } from './backtest.ts';
import { benchCrossmatch } from './crossmatch.ts';
import { benchFilters } from './filters.ts';
import { benchGw } from './gw.ts';
import { benchIngest } from './ingest.ts';
import { benchIngestMatrix } from './ingest-matrix.ts';
import { benchWatchlists } from './watchlists.ts';

/** `npm run bench -- <ingest|ingest-matrix|api|filters|backtest|watchlists|crossmatch|gw|web> [options]`: benchmarks that print numbers (never timed test assertions). */
const benches: Record<string, (args: string[]) => Promise<void>> = {
  ingest: benchIngest,
  'ingest-matrix': benchIngestMatrix,
  api: benchApi,
  filters: benchFilters,
  backtest: benchBacktest,
  watchlists: benchWatchlists,
  crossmatch: benchCrossmatch,
  gw: benchGw,
  // Loaded on demand: it brings the browser driver along.
  web: async (args) => (await import('@antares/web/bench')).benchWeb(args),
};

const [name, ...args] = process.argv.slice(2);
const bench = name ? benches[name] : undefined;
if (!bench) {
  console.error(`usage: npm run bench -- <${Object.keys(benches).join('|')}> [options]`);
  process.exit(2);
}
bench(args).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
