import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatNotifier } from './chat.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'antares-chat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chat notifications', () => {
  it('go to the outbox file and the log without a Slack token', async () => {
    const outboxFile = path.join(dir, 'outbox', 'chat-outbox.jsonl');
    const logged: string[] = [];
    const chat = createChatNotifier({ outboxFile, log: (line) => logged.push(line) });
    await chat.send({ channel: '#alerts', text: 'first line\nsecond' });
    await chat.send({ channel: '@someone', text: 'again' });
    const lines = readFileSync(outboxFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map(({ channel, text }) => ({ channel, text }))).toEqual([
      { channel: '#alerts', text: 'first line\nsecond' }, { channel: '@someone', text: 'again' },
    ]);
    expect(logged[0]).toBe('chat (outbox) #alerts: first line');
  });

  it('posts to Slack with the bot token, and keeps an undeliverable message in the outbox with the reason', async () => {
    const received: Array<{ auth?: string; body: { channel: string; text: string } }> = [];
    const slack = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        const parsed = JSON.parse(body);
        received.push({ auth: request.headers.authorization, body: parsed });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(parsed.channel === '#nowhere' ? { ok: false, error: 'channel_not_found' } : { ok: true }));
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
    const { port } = slack.address() as AddressInfo;
    const outboxFile = path.join(dir, 'undelivered.jsonl');
    const chat = createChatNotifier({ slackToken: 'xoxb-test', slackApiUrl: `http://127.0.0.1:${port}/api`, outboxFile, log: () => {} });
    try {
      await chat.send({ channel: '#alerts', text: 'delivered' });
      await chat.send({ channel: '#nowhere', text: 'kept' });
    } finally {
      slack.close();
    }
    expect(received).toEqual([
      { auth: 'Bearer xoxb-test', body: { channel: '#alerts', text: 'delivered' } },
      { auth: 'Bearer xoxb-test', body: { channel: '#nowhere', text: 'kept' } },
    ]);
    const lines = readFileSync(outboxFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ channel: '#nowhere', text: 'kept', note: 'not delivered: channel_not_found' });
  });
});
