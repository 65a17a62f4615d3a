import type { Repositories } from '@antares/db';
import { buildServer, type Config } from '@antares/server';
import { APT_INSTALL, createFilterSandbox } from '@antares/pipeline';

export async function runServe(config: Config, repos: Repositories, close: () => Promise<void>): Promise<void> {
  const checker = createFilterSandbox(repos);
  if (checker.missing.length > 0) {
    console.warn(`Filter code is stored without a sandbox check and cannot be test-run: missing ${checker.missing.join(', ')} (install: ${APT_INSTALL})`);
  }
  // Revoked token ids are needed only until their tokens expire.
  await repos.revokedTokens.purgeExpired();
  const app = await buildServer({ config, repos, logger: true, filterSandbox: checker.sandbox });
  const shutdown = async () => {
    await app.close();
    await checker.close();
    await close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  console.log(`ANTARES is serving at http://localhost:${config.port}`);
}
