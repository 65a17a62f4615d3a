import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, Repositories, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { handleGwBatch, handleGwMessage } from './gw-kafka.ts';
import { RecordedStream } from './recorded-stream.ts';

// The igwn.gwalert consumer's handling of one message (no Kafka broker runs here: the messages are
// what a broker delivers, the real notices of ../shared/data as bytes).
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

describe('igwn.gwalert messages', () => {
  it('stores a notice once, skips malformed messages, and takes a retraction', async () => {
    const notice = readFileSync(path.join(DATA, 'skyportal/gw/igwn_gwalert_preliminary.json'));
    expect(await handleGwMessage(database.repos, notice)).toEqual({ ok: true, gracedbId: 'MS260605l', stored: true, associated: 0 });
    expect(await handleGwMessage(database.repos, notice)).toMatchObject({ ok: true, stored: false });
    expect(await handleGwMessage(database.repos, Buffer.from('{"superevent_id": "MS260605l", "alert_type": "NOPE"}'))).toMatchObject({
      ok: false,
      error: expect.stringContaining('alert_type "NOPE"'),
    });
    expect(await handleGwMessage(database.repos, null)).toEqual({ ok: false, error: 'empty message' });
    const retraction = readFileSync(path.join(DATA, 'skyportal/gw/igwn_gwalert_retraction.json'), 'utf8');
    const outcome = await handleGwMessage(database.repos, Buffer.from(retraction));
    expect(outcome.ok).toBe(true);
    const gracedbId = JSON.parse(retraction).superevent_id;
    const [event] = (await database.repos.gravWaves.listEvents({ limit: 1, offset: 0, ids: [gracedbId] })).rows;
    expect(event.retracted).toBe(true);
  });
});

describe('igwn.gwalert batches', () => {
  it('commit after every notice of the batch is handled; a failed store commits nothing and the replay ends the same', async () => {
    const gwDatabase = await createTestDatabase();
    try {
      const stream = new RecordedStream();
      stream.append('igwn.gwalert', 0, readFileSync(path.join(DATA, 'skyportal/gw/igwn_gwalert_preliminary.json')));
      stream.append('igwn.gwalert', 0, Buffer.from('not a notice'));
      stream.append('igwn.gwalert', 0, readFileSync(path.join(DATA, 'skyportal/gw/igwn_gwalert_retraction.json')));
      const [all] = stream.assign(1);
      // The second notice's store fails (the database went away): the first is stored already.
      const failing = new Repositories(gwDatabase.db, gwDatabase.repos.kind);
      const addNotice = failing.gravWaves.addNotice.bind(failing.gravWaves);
      let calls = 0;
      failing.gravWaves.addNotice = async (notice) => {
        if (++calls === 2) throw new Error('connection terminated');
        return addNotice(notice);
      };
      const port = stream.port(all);
      await expect(stream.consume(all, 10, (batch) => handleGwBatch(failing, batch, port))).rejects.toThrow('connection terminated');
      expect(stream.commits).toEqual([]);

      const outcomes: unknown[] = [];
      const resumed = stream.port(all);
      await stream.consume(all, 10, async (batch) => outcomes.push(...(await handleGwBatch(gwDatabase.repos, batch, resumed))));
      expect(outcomes).toMatchObject([
        { ok: true, gracedbId: 'MS260605l', stored: false },
        { ok: false },
        { ok: true, gracedbId: 'MS260605l', stored: true },
      ]);
      expect(stream.commits).toEqual([{ topic: 'igwn.gwalert', partition: 0, offset: '3' }]);
      const [event] = (await gwDatabase.repos.gravWaves.listEvents({ limit: 1, offset: 0, ids: ['MS260605l'] })).rows;
      expect(event.retracted).toBe(true);
    } finally {
      await gwDatabase.close();
    }
  });
});
