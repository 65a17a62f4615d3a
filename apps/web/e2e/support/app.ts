import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';

import type { Download, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

import { describeViolations, seriousViolations } from './axe';

export function baseURL(): string {
  return inject('baseURL');
}

/** Opens a path of the app and waits for the network to settle. */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${baseURL()}${path}`, { waitUntil: 'networkidle' });
}

export async function expectNoSeriousViolations(page: Page): Promise<void> {
  // Colours caught halfway through a CSS transition (a dropdown toggle that just opened) are not the
  // page's colours: let running transitions end first (finite ones; looping animations are left alone).
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
  );
  const violations = await seriousViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

/** The `query` URL parameter of the locus list, parsed. */
export function listQuery(page: Page): {
  currentPage: number;
  filters: { type: string; text: string }[];
  sortBy: string;
  sortDesc: boolean;
  perPage: number;
} {
  const raw = new URL(page.url()).searchParams.get('query');
  return JSON.parse(raw ?? '{}');
}

export async function firstLocusIds(page: Page): Promise<string[]> {
  await page.locator('[data-testid=locus-row]').first().waitFor();
  return page.locator('[data-testid=locus-row] td:first-child a').allTextContents();
}

export async function downloadBytes(download: Download): Promise<Buffer> {
  const file = await download.path();
  return readFileSync(file);
}

/**
 * All text-ish content of a PDF: the raw bytes plus every Flate-compressed stream inflated, plus
 * hex strings decoded, so a test can check that a PDF names something without a PDF library.
 */
export function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const parts = [raw];
  const streamPattern = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streamPattern.exec(raw))) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end === -1) break;
    try {
      parts.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream (images, fonts): skip
    }
  }
  const text = parts.join('\n');
  const hex = [...text.matchAll(/<([0-9A-Fa-f\s]{4,})>/g)].map((m) => Buffer.from(m[1].replace(/\s/g, ''), 'hex').toString('latin1'));
  return `${text}\n${hex.join('\n')}`;
}

export interface Account {
  username: string;
  password: string;
  email: string;
  name: string;
}

/** A new account, registered through the API (POST /v1/users), with a unique username. */
export async function registerAccount(prefix = 'e2e_'): Promise<Account> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const account = { username: `${prefix}${stamp}`, password: 'Passw0rdX', email: `${prefix}${stamp}@example.org`, name: `Test ${stamp}` };
  const response = await fetch(`${baseURL()}/v1/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'user', attributes: account } }),
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return account;
}

/** Signs in through the login page (optionally with a redirect) and waits for the app to move on. */
export async function login(page: Page, account: { username: string; password: string }, redirect?: string): Promise<void> {
  await open(page, redirect ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.waitForLoadState('networkidle');
}

/** Logs out through the user menu (the page reloads). */
export async function logoutThroughMenu(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Logout' }).click()]);
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
}

/** The persisted session (local storage, store version 0.1.0). */
export async function storedSession(
  page: Page,
): Promise<{ version: string; isAuthenticated: boolean; user: { username: string; admin?: boolean } | null } | null> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('antares.session') ?? 'null'));
}

/**
 * Collects what must never happen on a page: Content-Security-Policy violations (Chromium reports
 * them on the console) and uncaught script errors.
 */
export function watchPage(page: Page): { problems: () => string[] } {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { problems: () => [...problems] };
}

/** The password reset mail written to the server's outbox for an address (no SMTP in tests). */
export async function resetLinkFromOutbox(dataDir: string, email: string, timeoutMs = 10_000): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(outbox)) {
      const files = readdirSync(outbox)
        .filter((name) => name.endsWith(`${email}.eml`))
        .sort();
      const last = files.at(-1);
      if (last) {
        const match = /https?:\/\/\S+forgot-password\?token=\S+/.exec(readFileSync(path.join(outbox, last), 'utf8'));
        if (match) return match[0];
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no reset mail for ${email} in ${outbox}`);
}

/** A cookie session of the API for test set-up and clean-up (login, then calls with the CSRF header). */
export async function apiSession(account: { username: string; password: string }) {
  const response = await fetch(`${baseURL()}/v1/auth/login?type=cookie`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  if (!response.ok) throw new Error(`login of ${account.username} failed: ${response.status}`);
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]);
  const csrf = cookies.find((c) => c.startsWith('csrf_access_token='))?.split('=')[1] ?? '';
  return (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${baseURL()}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { Cookie: cookies.join('; '), 'X-CSRF-TOKEN': csrf, 'Content-Type': 'application/vnd.api+json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
}

export type Call = Awaited<ReturnType<typeof apiSession>>;

/** The JSON body of an answer that must be 2xx. */
export async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
