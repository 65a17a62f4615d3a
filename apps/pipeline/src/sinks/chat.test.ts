import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ChatDispatcher, outboxNotifier, retryDelaySeconds, slackSender } from './chat.ts';

/** A Slack-like receiver on loopback: records every request; answers with what `reply` says. */
function receiver() {
  const received: Array<{ path: string; auth?: string; body: { channel: string; text: string } }> = [];
  let reply: (body: { channel: string }) => { status: number; json?: unknown; text?: string } = () => ({ status: 200, json: { ok: true } });
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const body = JSON.parse(raw);
      received.push({ path: request.url ?? '', auth: request.headers.authorization, body });
      const answer = reply(body);
      response.statusCode = answer.status;
      response.end(answer.json ? JSON.stringify(answer.json) : (answer.text ?? ''));
    });
  });
  return {
    received,
    setReply: (fn: typeof reply) => {
      reply = fn;
    },
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('chat notifications', () => {
  let database: TestDatabase;
  const slack = receiver();
  let url: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    url = await slack.start();
  });
  afterAll(async () => {
    await slack.stop();
    await database?.close();
  });

  it('delivers queued messages through chat.postMessage, retries refused ones with backoff, and never twice', async () => {
    const { repos } = database;
    await outboxNotifier(repos).send({ channel: '#filters', text: 'a filter failed' });
    expect(
      await repos.chatOutbox.enqueue([
        { channel: '#watch', text: 'object seen', dedup_key: 'watch:1:ztf_candidate:1' },
        { channel: '#watch', text: 'object seen again', dedup_key: 'watch:1:ztf_candidate:1' },
        { channel: '#nowhere', text: 'refused at first', dedup_key: 'watch:2:ztf_candidate:1' },
      ]),
    ).toBe(2);
    let refuse = true;
    slack.setReply((body) =>
      body.channel === '#nowhere' && refuse
        ? { status: 200, json: { ok: false, error: 'channel_not_found' } }
        : { status: 200, json: { ok: true } },
    );
    const logged: string[] = [];
    const dispatcher = new ChatDispatcher(repos, slackSender({ token: 'xoxb-test', apiUrl: `${url}/api` })!, {
      log: (l) => logged.push(l),
      retryDelaySeconds: () => 0,
    });

    expect(await dispatcher.deliverDue()).toBe(2);
    expect(slack.received.map((r) => [r.path, r.auth, r.body.channel, r.body.text])).toEqual([
      ['/api/chat.postMessage', 'Bearer xoxb-test', '#filters', 'a filter failed'],
      ['/api/chat.postMessage', 'Bearer xoxb-test', '#watch', 'object seen'],
      ['/api/chat.postMessage', 'Bearer xoxb-test', '#nowhere', 'refused at first'],
    ]);
    expect(logged[0]).toContain('chat to #nowhere failed (attempt 1, retry in 0 s): channel_not_found');
    expect(await repos.chatOutbox.pendingCount()).toBe(1);

    refuse = false;
    expect(await dispatcher.deliverDue()).toBe(1);
    expect(await dispatcher.deliverDue()).toBe(0);
    expect(slack.received.filter((r) => r.body.channel === '#nowhere')).toHaveLength(2);
    expect(slack.received.filter((r) => r.body.channel === '#watch')).toHaveLength(1);
    expect(await repos.chatOutbox.pendingCount()).toBe(0);
  });

  it('posts to an incoming webhook and treats an HTTP error as a failure', async () => {
    const { repos } = database;
    slack.setReply(() => ({ status: 500, text: 'boom' }));
    await repos.chatOutbox.enqueue([{ channel: '#hook', text: 'via webhook', dedup_key: null }]);
    const dispatcher = new ChatDispatcher(repos, slackSender({ webhookUrl: `${url}/services/T/B/X` })!, {
      log: () => {},
      retryDelaySeconds: () => 0,
    });
    expect(await dispatcher.deliverDue()).toBe(0);
    slack.setReply(() => ({ status: 200, text: 'ok' }));
    expect(await dispatcher.deliverDue()).toBe(1);
    const hook = slack.received.filter((r) => r.path === '/services/T/B/X');
    expect(hook.map((r) => [r.auth, r.body.text])).toEqual([
      [undefined, 'via webhook'],
      [undefined, 'via webhook'],
    ]);
  });

  it('backs off 5 s doubling up to an hour, and has no sender without configuration', () => {
    expect([1, 2, 3, 10, 20].map((attempts) => retryDelaySeconds(attempts))).toEqual([10, 20, 40, 3600, 3600]);
    expect(retryDelaySeconds(2, 0.5)).toBe(2);
    expect(retryDelaySeconds(0)).toBe(5);
    expect(slackSender({})).toBeUndefined();
  });
});
