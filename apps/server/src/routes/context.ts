import type { Repositories } from '@antares/db';

import type { Authenticator } from '../auth/authenticator.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import type { Mailer } from '../auth/mailer.ts';
import type { TokenService } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { FilterSandbox } from '../services/filter-service.ts';

/** What every route module is given: configuration, repositories and the session machinery. */
export interface RouteContext {
  config: Config;
  repos: Repositories;
  /** Background jobs' repositories: no statement timeout (ADR 0059); the same as `repos` unless given. */
  jobRepos: Repositories;
  auth: Authenticator;
  tokens: TokenService;
  limiter: LoginLimiter;
  mailer: Mailer;
  /** Checks and dry-runs filter code; undefined where the sandbox cannot run (then code is stored unchecked). */
  filterSandbox?: FilterSandbox;
}
