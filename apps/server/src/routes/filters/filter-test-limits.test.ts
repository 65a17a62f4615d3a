import { APT_INSTALL, createFilterSandbox, DEFAULT_SANDBOX_LIMITS, missingSandboxPrerequisites } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { HttpSession } from '../../testing/http-session.ts';
import { signedInSession } from '../../testing/signed-in.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Dry runs are bounded: hostile code (a hang at load, an endless run) holds one worker of the API
// server's pool for a limited time, one per user, and other users' dry runs still get a worker.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `filter dry-run limit tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

// Limits long enough that a trivial dry run (a second or two) always ends well inside them, even on a
// loaded machine: the test shows outcomes (who answered first, with what), never measures time. The
// per-locus limit is above the budget, so that the budget is what stops the endless run.
const LIMITS = { ...DEFAULT_SANDBOX_LIMITS, loadTimeoutMs: 20_000, dryRunBudgetMs: 20_000, locusTimeoutMs: 30_000, dryRunWorkers: 3 };
const HANGS_AT_LOAD = 'import antares.devkit as dk\nwhile True:\n    pass\n';
const HANGS_IN_RUN = `import antares.devkit as dk
class Endless(dk.Filter):
    def run(self, locus):
        while True:
            pass
`;
const TRIVIAL = `import antares.devkit as dk
class Trivial(dk.Filter):
    OUTPUT_TAGS = [{'name': 'trivially_seen', 'description': 'every locus'}]
    def run(self, locus):
        locus.tag('trivially_seen')
`;
const data = (attributes: Record<string, unknown>) => ({ data: { type: 'filter_test', attributes } });

describe.skipIf(missing.length > 0)('bounded filter dry runs', () => {
  let server: TestServer;
  let closeSandbox = async () => {};
  let loadHanger: HttpSession;
  let runHanger: HttpSession;
  let bystander: HttpSession;

  beforeAll(async () => {
    server = await startTestServer({
      ingest: ['ztf-avro-alert/samples', 'alerce'],
      config: { filterLimits: LIMITS },
      filterSandbox: (repos, config) => {
        const created = createFilterSandbox(repos, config.filterLimits);
        closeSandbox = created.close;
        return created.sandbox;
      },
    });
    loadHanger = await signedInSession(server, 'load-hanger');
    runHanger = await signedInSession(server, 'run-hanger');
    bystander = await signedInSession(server, 'bystander');
  }, 180_000);
  afterAll(async () => {
    await closeSandbox();
    await server?.close();
  });

  it("answers another user's trivial dry run while two hostile ones hold workers; each hostile one ends at its limit and says so", async () => {
    const settled = { load: false, run: false };
    const atLoad = loadHanger.post('/v1/filters/test', data({ code: HANGS_AT_LOAD, last_n: 5 })).finally(() => {
      settled.load = true;
    });
    const inRun = runHanger.post('/v1/filters/test', data({ code: HANGS_IN_RUN, last_n: 20 })).finally(() => {
      settled.run = true;
    });

    const trivial = await bystander.post('/v1/filters/test', data({ code: TRIVIAL, last_n: 5 }));
    expect(trivial.status).toBe(200);
    expect(trivial.body.data.attributes).toMatchObject({ loaded: true, stopped_early: null, counts: { loci: 5, ok: 5, tagged: 5 } });
    expect(settled).toEqual({ load: false, run: false });

    // One sandbox job per user at a time: a second dry run, or a code check, while the first runs.
    const again = await loadHanger.post('/v1/filters/test', data({ code: TRIVIAL, last_n: 1 }));
    expect(again.status).toBe(429);
    expect(again.body.errors[0]).toMatchObject({
      status: '429',
      detail: 'You already have a filter test or code check running: wait for it to finish, then try again',
    });
    const owner = (await server.repos.users.findByUsername('load-hanger'))!;
    const filter = await loadHanger.post(`/v1/users/${owner.user_id}/filters`, {
      data: { type: 'filter', attributes: { name: 'Second job', description: 'x' } },
    });
    expect(filter.status).toBe(201);
    const version = await loadHanger.post(`/v1/filters/${filter.body.data.id}/versions`, {
      data: { type: 'filter_version', attributes: { code: TRIVIAL, comment: 'v1' } },
    });
    expect(version.status).toBe(429);
    expect(settled).toEqual({ load: false, run: false });

    const loadReport = (await atLoad).body.data.attributes;
    expect(loadReport).toMatchObject({
      loaded: false,
      loci: [],
      load_error: { type: 'Timeout', message: 'loading the filter took longer than 20 s, its limit' },
    });

    const runReport = (await inRun).body.data.attributes;
    expect(runReport.loaded).toBe(true);
    // The locus in flight when the budget ran out is a timeout; the others were never started.
    expect(runReport.loci.map((l: { status: string }) => l.status)).toEqual(['timeout']);
    const asked = (await server.repos.loci.newestForFilters(20, 2)).length;
    expect(runReport.stopped_early).toBe(
      `Stopped early because the run's time budget of 20 s was used up: ${asked - 1} of ${asked} loci were not run`,
    );
    expect(runReport.counts).toMatchObject({ loci: 1, ok: 0, error: 1 });

    // Its turn over, the same user may test again.
    expect((await loadHanger.post('/v1/filters/test', data({ code: TRIVIAL, last_n: 1 }))).status).toBe(200);
  }, 120_000);
});
