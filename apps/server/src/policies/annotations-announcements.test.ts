import { describe, expect, it } from 'vitest';

import { hashPassword } from '../auth/passwords.ts';
import { HttpSession } from '../testing/http-session.ts';
import { fx, PASSWORD, sessions, the, usePermissionServer } from './permission-fixtures.ts';

// Who may keep which annotations, favorites and announcements, beyond the status codes of the matrix.
usePermissionServer();

describe('annotations and favorites', () => {
  it('keeps one annotation per (locus, owner) and lists favorites', async () => {
    const owner = (await the.server.repos.users.create({
      username: 'annotator',
      email: 'a@example.org',
      name: 'A',
      password_hash: await hashPassword(PASSWORD),
    }))!.user_id;
    const session = new HttpSession(the.server.url);
    await session.post('/v1/auth/login?type=cookie', { username: 'annotator', password: PASSWORD });
    const locus = fx.locus;
    const body = { data: { type: 'locus_annotation', attributes: {}, relationships: { locus: { data: { type: 'locus', id: locus } } } } };
    const first = await session.post('/v1/locus_annotations', body);
    expect(first.status).toBe(201);
    expect(first.body.data.attributes).toMatchObject({ comment: '', favorited: false });
    expect((await session.post('/v1/locus_annotations', body)).status).toBe(409);
    const tooLong = await session.patch(`/v1/locus_annotations/${first.body.data.id}`, {
      data: { attributes: { comment: 'x'.repeat(256) } },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].detail).toContain('Field may not have more than 255 characters.');
    expect((await session.post(`/v1/users/${owner}/relationships/favorite_loci`, { data: [{ type: 'locus', id: locus }] })).status).toBe(
      204,
    );
    const list = await session.get(`/v1/users/${owner}/locus_annotations?page%5Blimit%5D=1000&page%5Boffset%5D=0`);
    const mine = list.body.data.find((a: any) => a.relationships.locus.data.id === locus);
    expect(mine.attributes.favorited).toBe(true);
    expect(list.body.meta.count).toBe(list.body.data.length);
    const paged = await session.get(`/v1/users/${owner}/locus_annotations?page%5Blimit%5D=1&page%5Boffset%5D=0`);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.meta.count).toBe(list.body.meta.count);
    expect(
      (
        await session.request('DELETE', `/v1/users/${owner}/relationships/favorite_loci`, {
          body: { data: [{ type: 'locus', id: locus }] },
        })
      ).status,
    ).toBe(204);
    const after = await session.get(`/v1/users/${owner}/locus_annotations?page%5Blimit%5D=1000`);
    expect(after.body.data.find((a: any) => a.relationships.locus.data.id === locus).attributes).toMatchObject({
      favorited: false,
      comment: '',
    });
    const missing = await session.post(`/v1/users/${owner}/relationships/favorite_loci`, { data: [{ type: 'locus', id: 'ANT2020none' }] });
    expect(missing.status).toBe(404);
  });
});

describe('announcements', () => {
  it('creates, filters and toggles announcements with the spec limits', async () => {
    const admin = sessions.admin;
    const tooLong = await admin.post('/v1/announcements', { data: { attributes: { message: 'x'.repeat(2049), variant: 'info' } } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0].detail).toContain('Field may not have more than 2048 characters.');
    expect((await admin.post('/v1/announcements', { data: { attributes: { message: 'x'.repeat(2048), variant: 'dark' } } })).status).toBe(
      201,
    );
    expect(
      (await admin.post('/v1/announcements', { data: { attributes: { message: '  ', variant: 'info' } } })).body.errors[0].detail,
    ).toBe('message: Field is required.');
    expect((await admin.post('/v1/announcements', { data: { attributes: { message: 'x', variant: 'purple' } } })).status).toBe(400);
    for (const variant of ['primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark']) {
      expect((await admin.post('/v1/announcements', { data: { attributes: { message: `v ${variant}`, variant } } })).status, variant).toBe(
        201,
      );
    }
    const created = await admin.post('/v1/announcements', {
      data: { attributes: { message: 'Maintenance tonight', variant: 'warning', active: true } },
    });
    expect(created.status).toBe(201);
    const filter = encodeURIComponent(JSON.stringify([{ field: 'active', op: 'eq', value: true }]));
    const active = await sessions.anonymous.get(`/v1/announcements?filter=${filter}`);
    expect(active.body.data.map((a: any) => a.attributes.message)).toContain('Maintenance tonight');
    expect(active.body.data.every((a: any) => a.attributes.active)).toBe(true);
    const sorted = await sessions.anonymous.get('/v1/announcements?sort=-active&page%5Blimit%5D=2&page%5Boffset%5D=0');
    expect(sorted.body.data[0].attributes.active).toBe(true);
    expect(sorted.body.data).toHaveLength(2);
    expect(sorted.body.meta.count).toBeGreaterThan(2);
    const off = await admin.patch(`/v1/announcements/${created.body.data.id}`, { data: { attributes: { active: false } } });
    expect(off.body.data.attributes.active).toBe(false);
    expect((await sessions.anonymous.get(`/v1/announcements?filter=${filter}`)).body.data.map((a: any) => a.id)).not.toContain(
      created.body.data.id,
    );
    expect((await sessions.anonymous.get('/v1/announcements?filter=%5B%7B%22field%22%3A%22x%22%7D%5D')).status).toBe(400);
    expect((await admin.patch('/v1/announcements/999999', { data: { attributes: { active: true } } })).status).toBe(404);
  });
});
