/** Every endpoint described in the contract, by resource; `ENDPOINTS` lists them for the OpenAPI document. */
import * as backtests from './backtests.ts';
import * as catalogs from './catalogs.ts';
import type { Endpoint } from './define.ts';
import * as filters from './filters.ts';
import * as tags from './tags.ts';
import * as users from './users.ts';
import * as watchLists from './watch-lists.ts';

export * from './backtests.ts';
export * from './catalogs.ts';
export * from './check.ts';
export * from './common.ts';
export * from './define.ts';
export * from './filters.ts';
export * from './tags.ts';
export * from './users.ts';
export * from './watch-lists.ts';

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === 'object' && value !== null && 'operationId' in value && 'method' in value && 'path' in value;

/** Every endpoint of the contract (the routes not yet described here keep hand-written OpenAPI paths). */
export const ENDPOINTS: Endpoint[] = [backtests, catalogs, filters, tags, users, watchLists].flatMap((module) =>
  Object.values(module).filter(isEndpoint),
);
