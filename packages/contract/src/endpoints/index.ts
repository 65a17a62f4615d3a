/** Every endpoint described in the contract, by resource; `ENDPOINTS` lists them for the OpenAPI document. */
import * as alertUploads from './alert-uploads.ts';
import * as alerts from './alerts.ts';
import * as annotations from './annotations.ts';
import * as announcements from './announcements.ts';
import * as auth from './auth.ts';
import * as backtests from './backtests.ts';
import * as catalogs from './catalogs.ts';
import type { Endpoint } from './define.ts';
import * as filterEnvironment from './filter-environment.ts';
import * as filterFiles from './filter-files.ts';
import * as filters from './filters.ts';
import * as gravWaves from './grav-waves.ts';
import * as loci from './loci.ts';
import * as properties from './properties.ts';
import * as site from './site.ts';
import * as streams from './streams.ts';
import * as tags from './tags.ts';
import * as users from './users.ts';
import * as watchLists from './watch-lists.ts';

export * from './alert-uploads.ts';
export * from './alerts.ts';
export * from './annotations.ts';
export * from './announcements.ts';
export * from './auth.ts';
export * from './backtests.ts';
export * from './catalogs.ts';
export * from './check.ts';
export * from './common.ts';
export * from './define.ts';
export * from './filter-environment.ts';
export * from './filter-files.ts';
export * from './filters.ts';
export * from './grav-waves.ts';
export * from './loci.ts';
export * from './properties.ts';
export * from './site.ts';
export * from './streams.ts';
export * from './tags.ts';
export * from './users.ts';
export * from './watch-lists.ts';

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'operationId' in value && 'method' in value && 'path' in value;

/** Every endpoint of the contract: the OpenAPI document's paths. */
export const ENDPOINTS: Endpoint[] = [
  alertUploads,
  alerts,
  annotations,
  announcements,
  auth,
  backtests,
  catalogs,
  filterEnvironment,
  filterFiles,
  filters,
  gravWaves,
  loci,
  properties,
  site,
  streams,
  tags,
  users,
  watchLists,
].flatMap((module) => Object.values(module).filter(isEndpoint));
