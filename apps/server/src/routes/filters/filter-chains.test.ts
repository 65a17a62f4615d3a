import { APT_INSTALL, createFilterSandbox, missingSandboxPrerequisites } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { HttpSession } from '../../testing/http-session.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Chained filters over HTTP (ADR 0055), in the real sandbox on real ingested ZTF loci: a dry run of a
// filter reading what an enabled filter writes runs that filter first; enabling a version that would
// close a cycle is refused, naming the filters.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `chained filter tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const PRODUCER = `import antares.devkit as dk
class PeakMagnitude(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'chain_peak_mag', 'type': 'float', 'description': 'brightest magnitude'}]
    def run(self, locus):
        mags = [a.properties['ant_mag'] for a in locus.alerts if a.properties.get('ant_mag') is not None]
        locus.properties['chain_peak_mag'] = min(mags)
`;
// The devkit2 style: names the producer's property in setup(), gets it in its event dictionary.
const CONSUMER = `from devkit2_poc.models import BaseFilter
class BrightPeak(BaseFilter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'chain_peak_flux', 'type': 'float', 'description': 'peak flux in microjansky'}]
    OUTPUT_TAGS = [{'name': 'chain_bright_peak', 'description': 'peak brighter than 18.5'}]
    def setup(self):
        self.input_properties = ['chain_peak_mag']
    def _run(self, event_dict, ts):
        event_dict['chain_peak_flux'] = 10 ** ((23.9 - event_dict['chain_peak_mag']) / 2.5)
        event_dict['chain_bright_peak'] = event_dict['chain_peak_mag'] < 18.5
        return event_dict
`;
// Reads the consumer's output and writes the property the consumer reads: a cycle with it.
const CLOSER = `import antares.devkit as dk
class Recalibrated(dk.Filter):
    INPUT_LOCUS_PROPERTIES = ['chain_peak_flux']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'chain_peak_mag', 'type': 'float', 'description': 'from the flux again'}]
    def run(self, locus):
        pass
`;

describe.skipIf(missing.length > 0)('chained filters', () => {
  let server: TestServer;
  let closeSandbox = async () => {};
  const as: Record<'author' | 'admin', HttpSession> = {} as never;
  let authorId = 0;

  beforeAll(async () => {
    server = await startTestServer({
      ingest: ['ztf-avro-alert/samples', 'alerce'],
      filterSandbox: (repos) => {
        const created = createFilterSandbox(repos);
        closeSandbox = created.close;
        return created.sandbox;
      },
    });
    const hash = await hashPassword('Galaxy2026');
    for (const [name, admin] of [
      ['author', false],
      ['admin', true],
    ] as const) {
      const user = (await server.repos.users.create({
        username: `chain-${name}`,
        email: `${name}@example.org`,
        name,
        password_hash: hash,
        admin,
      }))!;
      if (name === 'author') authorId = user.user_id;
      as[name] = new HttpSession(server.url);
      await as[name].post('/v1/auth/login?type=cookie', { username: `chain-${name}`, password: 'Galaxy2026' });
    }
  }, 180_000);
  afterAll(async () => {
    await closeSandbox();
    await server?.close();
  });

  /** A filter with one version of `code`, reviewed; returns the ids and a way to move the version. */
  const submit = async (name: string, code: string) => {
    const filter = await as.author.post(`/v1/users/${authorId}/filters`, {
      data: { type: 'filter', attributes: { name, description: name } },
    });
    expect(filter.status).toBe(201);
    const id = filter.body.data.id as string;
    const version = await as.author.post(`/v1/filters/${id}/versions`, { data: { attributes: { code, comment: 'v1' } } });
    expect(version.status).toBe(201);
    const move = (status: string) =>
      as.admin.patch(`/v1/filters/${id}/versions/${version.body.data.id}`, { data: { attributes: { status, feedback: 'ok' } } });
    expect((await move('REVIEWED')).status).toBe(200);
    return { id, versionId: version.body.data.id as string, move };
  };

  it('dry-runs a chained filter after the enabled filter it reads from, reporting only its own results', async () => {
    const loci = await server.repos.loci.newestForFilters(6, 2);
    expect(loci).toHaveLength(6);
    const ids = loci.map((l) => l.locus_id);
    const test = async () => {
      const response = await as.author.post('/v1/filters/test', {
        data: { type: 'filter_test', attributes: { code: CONSUMER, locus_ids: ids } },
      });
      expect(response.body.errors).toBeUndefined();
      return response.body.data.attributes;
    };

    // Nothing writes chain_peak_mag yet: each locus is an error naming the property, not a load failure.
    const alone = await test();
    expect(alone.loaded).toBe(true);
    expect(alone.dependencies).toEqual([]);
    for (const result of alone.loci) {
      expect(result.status).toBe('error');
      expect(result.error.message).toContain('chain_peak_mag');
    }

    const producer = await submit('Peak magnitude', PRODUCER);
    expect((await producer.move('ENABLED')).status).toBe(200);
    const ran = { loaded: true, load_error: null, counts: { loci: 6, ok: 6, skipped: 0, error: 0 } };
    // A private filter runs all the same, but is named to nobody.
    const unnamed = await test();
    expect(unnamed.dependencies).toEqual([{ filter_id: null, filter_version_id: null, name: 'a private filter', ...ran }]);
    expect((await as.author.patch(`/v1/filters/${producer.id}`, { data: { attributes: { public: true } } })).status).toBe(200);
    const chained = await test();
    expect(chained.dependencies).toEqual([
      { filter_id: producer.id, filter_version_id: producer.versionId, name: 'Peak magnitude', ...ran },
    ]);
    expect(unnamed.loci).toEqual(
      chained.loci.map((l: Record<string, unknown>) => ({ ...l, duration_ms: expect.any(Number), stdout: expect.any(String) })),
    );
    expect(chained.counts).toMatchObject({ loci: 6, ok: 6, error: 0 });
    for (const [i, result] of chained.loci.entries()) {
      expect(result.locus_id).toBe(ids[i]);
      const alerts = (await server.getJson(`/v1/loci/${ids[i]}/alerts`)).body.data as Array<{
        attributes: { properties: Record<string, number> };
      }>;
      const peak = Math.min(...alerts.map((a) => a.attributes.properties.ant_mag).filter((m) => typeof m === 'number'));
      // Only the tested filter's outputs: the producer's property fed it but is not its result.
      expect(Object.keys(result.new_properties)).toEqual(['chain_peak_flux']);
      expect(result.new_properties.chain_peak_flux).toBeCloseTo(10 ** ((23.9 - peak) / 2.5), 6);
      expect(result.new_tags).toEqual(peak < 18.5 ? ['chain_bright_peak'] : []);
    }
    // Nothing stored: neither filter's outputs are on the loci.
    for (const l of await server.repos.loci.findMany(ids)) expect(l.properties.chain_peak_mag).toBeUndefined();
  });

  it('refuses to enable a version that closes a cycle of chained filters, naming them', async () => {
    const consumer = await submit('Bright peak', CONSUMER);
    expect((await consumer.move('ENABLED')).status).toBe(200);
    const closer = await submit('Recalibrated', CLOSER);
    const refused = await closer.move('ENABLED');
    expect(refused.status).toBe(409);
    const detail = refused.body.errors[0].detail as string;
    expect(detail).toContain('cycle of chained filters');
    expect(detail).toContain('"Bright peak" reads chain_peak_mag, written by "Recalibrated"');
    expect(detail).toContain('"Recalibrated" reads chain_peak_flux, written by "Bright peak"');
    expect((await as.admin.get(`/v1/filters/${closer.id}`)).body.data.attributes.enabled).toBe(false);
    // Once the consumer is disabled there is no cycle: the same version is enabled.
    expect((await consumer.move('DISABLED')).status).toBe(200);
    expect((await closer.move('ENABLED')).status).toBe(200);
  });
});
