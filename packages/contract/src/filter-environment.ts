/**
 * What a filter may import in the sandbox, as `GET /v1/filter_environment` serves it: the list is the
 * filter runtime's own (filter-runtime/antares_runtime/environment.py) and the versions are read from the
 * packages installed on the server (Debian's), so the Filters page and the FAQ show what filters get.
 * The schema, with each field's meaning, is the endpoint's (endpoints/filter-environment.ts).
 */
import type { Static } from 'typebox';

import type { FilterEnvironmentPackage as PackageSchema, FilterEnvironmentResource } from './endpoints/filter-environment.ts';

export type FilterEnvironmentPackage = Static<typeof PackageSchema>;
export type FilterEnvironment = Static<typeof FilterEnvironmentResource>['attributes'];
