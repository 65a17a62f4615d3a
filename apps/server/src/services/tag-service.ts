import type { FilterBudgetLimits } from '@antares/contract';
import type { Repositories } from '@antares/db';

import { badRequest, notFound } from '../errors.ts';
import { attributesOf, booleanField } from './body.ts';
import { type RunnerView, runnerViews } from './runner-budget.ts';

/** Tags (from enabled public filters) and the filter runner, where admins pause enabled filters. */
export class TagService {
  constructor(
    private readonly repos: Repositories,
    private readonly budget: FilterBudgetLimits,
  ) {}

  list(options: { sort: string | undefined; limit: number; offset: number }) {
    return this.repos.tags.list({ ...options, sort: options.sort || '-id' });
  }

  async find(name: string) {
    const tag = await this.repos.tags.find(name);
    if (!tag) throw notFound(`No tag named "${name}"`);
    return tag;
  }

  /** A page of the filters with an enabled version, with their states and budgets. */
  async runners(options: { sort: string | undefined; limit: number; offset: number }): Promise<{ rows: RunnerView[]; count: number }> {
    const page = await this.repos.filters.listRunnable({ ...options, sort: options.sort || '-id' });
    return { rows: await runnerViews(this.repos, this.budget, page.rows), count: page.count };
  }

  async runner(name: string): Promise<RunnerView> {
    const filter = await this.repos.filters.findByName(name);
    if (!filter || filter.enabled_version_id === null) throw notFound(`No enabled filter named "${name}"`);
    return (await runnerViews(this.repos, this.budget, [filter]))[0];
  }

  /**
   * Pauses or resumes an enabled filter (`enabled` in the body's attributes). Resuming one that Level 2
   * paused for its budget ends that pause: its windows before now count no more towards the next one.
   */
  async setRunnerEnabled(name: string, body: unknown): Promise<RunnerView> {
    const enabled = booleanField(attributesOf(body), 'enabled');
    if (enabled === undefined) throw badRequest('enabled: Field is required.');
    const filter = await this.repos.filters.findByName(name);
    if (!filter || filter.enabled_version_id === null) throw notFound(`No enabled filter named "${name}"`);
    if (enabled) await this.repos.filterBudgets.resume(filter.filter_id, new Date());
    const updated = (await this.repos.filters.update(filter.filter_id, { runner_enabled: enabled }))!;
    return (await runnerViews(this.repos, this.budget, [updated]))[0];
  }
}
