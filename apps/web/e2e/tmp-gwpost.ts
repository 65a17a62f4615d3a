import { gaussianSkyMap, igwnNotice } from './support/gw-notice.ts';
const base = 'http://127.0.0.1:18931';
const login = await fetch(`${base}/v1/auth/login?type=cookie`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'e2e-admin', password: 'AdminPass1' }) });
const cookies = login.headers.getSetCookie().map((l) => l.split(';')[0]);
const csrf = cookies.find((c) => c.startsWith('csrf_access_token='))?.split('=')[1] ?? '';
const id = process.argv[2] ?? 'MS251120gw';
const notice = { ...igwnNotice({ gracedbId: id, eventTime: new Date('2025-11-20T12:00:00Z'), createdTime: new Date('2025-11-20T12:05:00Z'), map: gaussianSkyMap(100, 20, 15) }) };
const r = await fetch(`${base}/v1/grav_wave_notices`, { method: 'POST', headers: { Cookie: cookies.join('; '), 'X-CSRF-TOKEN': csrf, 'Content-Type': 'application/vnd.api+json' }, body: JSON.stringify(notice) });
console.log(r.status, (await r.text()).slice(0, 300));
