import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashPassword } from '../../auth/passwords.ts';
import { loadConfig } from '../../config.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// POST /v1/auth/forgot as an attacker uses it: reset links that must point to the configured site whatever
// the request's headers say, answers that must not tell (by content or by when they come) whether an
// account exists, and a mailbox that must not be flooded. A real SMTP server on loopback that the test can
// hold, so that it can see what the server does before and after answering.
const PUBLIC_URL = 'https://antares.example.org';
const POISON = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  forwarded: 'host=evil.example;proto=https',
};

let server: TestServer;
let smtp: SMTPServer;
const mails: string[] = [];
/** Addresses whose mail the SMTP server has started to receive (it may be held before accepting it). */
const receiving: string[] = [];
let gate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      receiving.push(address.address);
      callback();
    },
    onData(stream, _session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        void gate.then(() => {
          mails.push(decodeMail(text));
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  server = await startTestServer({ config: { smtpUrl: `smtp://127.0.0.1:${port}`, publicUrl: PUBLIC_URL } });
  const password_hash = await hashPassword('Galaxy2026');
  for (const username of ['victim', 'blocker', 'late', 'busy', 'control']) {
    await server.repos.users.create({ username, email: `${username}@example.org`, name: username, password_hash });
  }
}, 60_000);
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** nodemailer's quoted-printable undone (long lines folded, `=` escaped). */
function decodeMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A forgot request with any headers (Host included, which fetch will not send as given). */
function forgot(baseUrl: string, username: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<{ status: number; text: string; type: string }>((resolve, reject) => {
    const request = http.request(
      { host: hostname, port, method: 'POST', path: '/v1/auth/forgot', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text, type: String(response.headers['content-type']) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ username }));
  });
}

const mailsTo = (address: string) => mails.filter((mail) => new RegExp(`^To: ${address}`, 'm').test(mail));
const linkOf = (mail: string) => /(\S+)\/forgot-password\?token=/.exec(mail)?.[1];

describe('reset links', () => {
  it('point to ANTARES_PUBLIC_URL only, whatever Host and X-Forwarded-* say', async () => {
    expect((await forgot(server.url, 'victim', POISON)).status).toBe(202);
    await expect.poll(() => mailsTo('victim@example.org').length, { timeout: 10_000 }).toBe(1);
    const mail = mailsTo('victim@example.org')[0];
    expect(linkOf(mail)).toBe(PUBLIC_URL);
    expect(mail).not.toContain('evil.example');
  });

  it('point to the address the server listens on when no mail leaves the machine (outbox) and nothing is configured', async () => {
    const offline = await startTestServer();
    try {
      await offline.repos.users.create({
        username: 'offline',
        email: 'offline@example.org',
        name: 'O',
        password_hash: await hashPassword('Galaxy2026'),
      });
      expect((await forgot(offline.url, 'offline', POISON)).status).toBe(202);
      const outbox = path.join(offline.config.dataDir, 'outbox');
      await expect.poll(() => (existsSync(outbox) ? readdirSync(outbox).length : 0), { timeout: 10_000 }).toBe(1);
      const mail = readFileSync(path.join(outbox, readdirSync(outbox)[0]), 'utf8');
      expect(linkOf(mail)).toBe(offline.url);
      expect(mail).not.toContain('evil.example');
    } finally {
      await offline.close();
    }
  });

  it('need ANTARES_PUBLIC_URL whenever mail goes out over SMTP; npm start gives its own URL', () => {
    const smtpUrl = 'smtp://mail.example.org:587';
    expect(() => loadConfig({ ANTARES_SMTP_URL: smtpUrl })).toThrow(/ANTARES_PUBLIC_URL: required when ANTARES_SMTP_URL is set/);
    expect(loadConfig({ ANTARES_SMTP_URL: smtpUrl, ANTARES_PUBLIC_URL: 'https://antares.example.org/' }).publicUrl).toBe(
      'https://antares.example.org',
    );
    expect(loadConfig({ ANTARES_SMTP_URL: smtpUrl }, {}, { ownUrl: true }).ownUrl).toBe('http://localhost:8080');
    expect(loadConfig({ ANTARES_SMTP_URL: smtpUrl, ANTARES_HOST: '10.1.2.3' }, { port: 9090 }, { ownUrl: true }).ownUrl).toBe(
      'http://10.1.2.3:9090',
    );
    // A configured URL wins over npm start's own.
    expect(loadConfig({ ANTARES_PUBLIC_URL: 'https://antares.example.org' }, {}, { ownUrl: true }).ownUrl).toBeUndefined();
  });
});

describe('forgot-password answers', () => {
  it('come before the account is looked up: alike for existing and unknown users while the mailer is held', async () => {
    let release = () => {};
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      expect((await forgot(server.url, 'blocker')).status).toBe(202);
      // The server is now stuck sending blocker's mail.
      await expect.poll(() => receiving.includes('blocker@example.org'), { timeout: 10_000 }).toBe(true);
      const known = await forgot(server.url, 'late');
      const unknown = await forgot(server.url, 'nobody-by-this-name');
      expect(known).toEqual(unknown);
      expect(known.status).toBe(202);
      expect(JSON.parse(known.text)).toEqual({
        message: 'If the user exists, a password reset link has been sent to their e-mail address.',
      });
      // Answered, and not looked up yet: the address changed after the answer is the one the mail goes to.
      await server.repos.users.update((await server.repos.users.findByUsername('late'))!.user_id, { email: 'late-moved@example.org' });
    } finally {
      release();
    }
    await expect.poll(() => mailsTo('late-moved@example.org').length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo('late@example.org')).toHaveLength(0);
    expect(mailsTo('blocker@example.org')).toHaveLength(1);
  });

  it('mail one account at most 3 reset links an hour, answering every request alike', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await forgot(server.url, i % 2 ? 'BUSY' : 'busy'));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    // Requests are handled in order: once control's mail is in, every busy request has been handled.
    expect((await forgot(server.url, 'control')).status).toBe(202);
    await expect.poll(() => mailsTo('control@example.org').length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo('busy@example.org')).toHaveLength(3);
    expect(new Set(mailsTo('busy@example.org').map((mail) => /token=(\S+)/.exec(mail)?.[1])).size).toBe(3);
  });
});
