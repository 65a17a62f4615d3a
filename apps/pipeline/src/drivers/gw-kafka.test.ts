import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { handleGwMessage } from './gw-kafka.ts';

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
