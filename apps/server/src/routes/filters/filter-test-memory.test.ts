import { APT_INSTALL, createFilterSandbox, DEFAULT_SANDBOX_LIMITS, missingSandboxPrerequisites } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signedInSession } from '../../testing/signed-in.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// A dry run's filter cannot take the host's memory (ADR 0058): every place it may write is bounded by
// ANTARES_FILTER_TMP_MB, memfds and SysV shared memory are refused, and it runs as a host uid of the
// configured range. filter-runtime/tests/test_memory_bounds.py checks the same at the worker.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `filter dry-run memory tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const CAP_MB = 16;
const MB = 1 << 20;
const LIMITS = {
  ...DEFAULT_SANDBOX_LIMITS,
  loadTimeoutMs: 30_000,
  dryRunBudgetMs: 60_000,
  locusTimeoutMs: 60_000,
  tmpMb: CAP_MB,
  uidRange: '330000-330009',
};
// Asks each place for 4 times the cap, in files of 4 MB (under RLIMIT_FSIZE), and says what it got.
const GRABBER = `import ctypes, errno, json, os
import antares.devkit as dk

def shmem():
    with open('/proc/meminfo') as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith('Shmem:'))

def fill(folder):
    written = 0
    try:
        while written < ${4 * CAP_MB * MB}:
            fd = os.open(os.path.join(folder, f'grab{len(folder)}-{written}'), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                for _ in range(4):
                    written += os.write(fd, b'x' * ${MB})
            finally:
                os.close(fd)
        return ['wrote', written]
    except OSError as e:
        return [errno.errorcode[e.errno], written]

class Grabber(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'grabbed', 'type': 'str', 'description': 'what it got'}]
    def run(self, locus):
        before = shmem()
        got = {folder: fill(folder) for folder in ('/', '/dev', '/dev/shm', '/tmp')}
        try:
            os.memfd_create('grab')
            got['memfd_create'] = 'made'
        except OSError as e:
            got['memfd_create'] = errno.errorcode[e.errno]
        libc = ctypes.CDLL(None, use_errno=True)
        got['shmget'] = 'made' if libc.shmget(0, ${4 * CAP_MB * MB}, 0o1600) != -1 else errno.errorcode[ctypes.get_errno()]
        got['shmem_rise'] = shmem() - before
        # The host uid that made /tmp (tmpfs shows its owner as the host sees it; the uid map is nested).
        with open('/proc/self/mountinfo') as fh:
            tmp = next(line for line in fh if line.split()[4] == '/tmp')
        got['host_uid'] = int(tmp.split('uid=')[1].split(',')[0])
        locus.properties['grabbed'] = json.dumps(got)
`;

describe.skipIf(missing.length > 0)('a dry run that grabs memory', () => {
  let server: TestServer;
  let closeSandbox = async () => {};

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
  }, 180_000);
  afterAll(async () => {
    await closeSandbox();
    await server?.close();
  });

  it('gets an error from each bounded place, the host at most the cap, and runs as a uid of the configured range', async () => {
    const session = await signedInSession(server, 'grabber');
    const answer = await session.post('/v1/filters/test', { data: { type: 'filter_test', attributes: { code: GRABBER, last_n: 1 } } });
    expect(answer.status).toBe(200);
    const report = answer.body.data.attributes;
    expect(report.loci.map((l: { status: string }) => l.status)).toEqual(['ok']);
    const got = JSON.parse(report.loci[0].new_properties.grabbed);
    expect(got).toMatchObject({
      '/': ['EROFS', 0],
      '/dev': ['EROFS', 0],
      '/tmp': ['ENOSPC', 0], // /dev/shm, its other name, took the whole budget first
      memfd_create: 'ENOSYS',
      shmget: 'ENOSYS',
    });
    expect(got['/dev/shm'][0]).toBe('ENOSPC');
    expect(got['/dev/shm'][1]).toBeGreaterThan((CAP_MB - 1) * MB);
    expect(got['/dev/shm'][1]).toBeLessThanOrEqual(CAP_MB * MB);
    // The host's shared memory rose by the cap at most (one more for the rest of the machine meanwhile).
    expect(got.shmem_rise).toBeLessThanOrEqual(2 * CAP_MB * MB);
    // Run as root, the launcher drops to a uid of ANTARES_SANDBOX_UID_RANGE; otherwise it keeps the server's.
    if (process.getuid?.() === 0) {
      expect(got.host_uid).toBeGreaterThanOrEqual(330000);
      expect(got.host_uid).toBeLessThanOrEqual(330009);
    } else expect(got.host_uid).toBe(process.getuid?.());
  }, 180_000);
});
