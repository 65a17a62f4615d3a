/** What filters may import in the sandbox, with the versions installed on this server. */
import Type from 'typebox';

import { resource } from './common.ts';
import { endpoint } from './define.ts';

/** One package a filter may import: the filter runtime's list (filter-runtime/antares_runtime/environment.py). */
export const FilterEnvironmentPackage = Type.Object({
  name: Type.String({ description: 'What authors call it: scikit-learn' }),
  import: Type.String({ description: 'What a filter imports: sklearn' }),
  version: Type.Union([Type.String(), Type.Null()], {
    description: "The installed version (without Debian's local suffix such as +dfsg); null when not installed here",
  }),
  debian: Type.String({ description: 'The Debian package that provides it' }),
  note: Type.String({ description: "A limit worth knowing ('CPU only', 'the sandbox has no network'), or ''" }),
});

export const FilterEnvironmentResource = resource('filter_environment', {
  python: Type.String({ description: "The sandbox's Python version, e.g. 3.11.2" }),
  packages: Type.Array(FilterEnvironmentPackage),
  devkit_modules: Type.Array(Type.String(), {
    description: 'Devkit module paths filters may import: antares.devkit, antares_devkit.models, ...',
  }),
});

export const getFilterEnvironment = endpoint({
  method: 'GET',
  path: '/v1/filter_environment',
  operationId: 'get_filter_environment',
  access: 'public',
  tags: ['Filters'],
  summary: 'The Python packages and devkit modules filters may import',
  description:
    "Read from the sandbox's Python on this server: its version, each package (`name`, `import`, installed `version` or null, `debian` package, `note`) and the devkit module paths (`devkit_modules`).",
  response: {
    status: 200,
    description: 'One filter_environment resource (id `sandbox`); attributes python, packages, devkit_modules',
    schema: Type.Object({ data: FilterEnvironmentResource }),
  },
  errors: { 503: "The sandbox's Python could not be asked (not installed on this server)" },
});
