import { hashPassword } from '../auth/passwords.ts';
import { HttpSession } from './http-session.ts';
import type { TestServer } from './test-server.ts';

const PASSWORD = 'Galaxy2026';

/** A new account on the test server and a cookie session logged into it (as the web app holds one). */
export async function signedInSession(server: TestServer, username: string, options: { admin?: boolean } = {}): Promise<HttpSession> {
  await server.repos.users.create({
    username,
    email: `${username}@example.org`,
    name: username,
    password_hash: await hashPassword(PASSWORD),
    admin: options.admin ?? false,
  });
  const session = new HttpSession(server.url);
  const login = await session.post('/v1/auth/login?type=cookie', { username, password: PASSWORD });
  if (login.status !== 200) throw new Error(`login of ${username} answered ${login.status}`);
  return session;
}
