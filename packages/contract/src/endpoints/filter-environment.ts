/** What filters can import in the sandbox, with the versions installed on this server. */
import Type from 'typebox';

import { resource } from './common.ts';
import { endpoint } from './define.ts';

/**
 * One top-level module a filter can import: the promised packages of the filter runtime's list
 * (filter-runtime/antares_runtime/environment.py) first, then every other module the configured interpreter
 * (ANTARES_FILTER_PYTHON) imports, the standard library left out.
 */
export const FilterEnvironmentPackage = Type.Object({
  name: Type.String({ description: "What authors call it: scikit-learn (the package's distribution name for the others)" }),
  import: Type.String({ description: 'What a filter imports: sklearn' }),
  version: Type.Union([Type.String(), Type.Null()], {
    description:
      "The installed version from the package metadata (without Debian's local suffix such as +dfsg); null when not installed here, or when the module has no metadata",
  }),
  debian: Type.String({ description: "The Debian package that provides a promised package; '' for the others" }),
  note: Type.String({ description: "A limit worth knowing ('CPU only', 'the sandbox has no network'), or ''" }),
  promised: Type.Boolean({ description: "On the runtime's own list, shown to authors first (a promised package may be missing here)" }),
  required: Type.Boolean({ description: 'The sandbox does not run without it (numpy, scipy, pandas, astropy, statsmodels)' }),
  location: Type.Union([Type.Literal('system'), Type.Literal('environment'), Type.Null()], {
    description:
      "Where it is installed: 'system' (Debian's packages), 'environment' (the virtual environment's own site-packages: what the operator pip-installed for filters); null when not installed",
  }),
});

export const FilterEnvironmentResource = resource('filter_environment', {
  python: Type.String({ description: "The sandbox's Python version, e.g. 3.11.2" }),
  sandboxed: Type.Boolean({ description: 'Read inside the sandbox, as a filter sees it (false: on a server without one)' }),
  virtual_environment: Type.Boolean({ description: "The configured interpreter is a virtual environment's" }),
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
  summary: 'The Python packages and devkit modules filters can import',
  description:
    "Read from the sandbox's Python on this server (ANTARES_FILTER_PYTHON), inside the sandbox: its version, every importable top-level module but the standard library's, the promised packages first (`name`, `import`, installed `version` or null, `debian` package, `note`, `promised`, `required`, `location`), and the devkit module paths (`devkit_modules`).",
  response: {
    status: 200,
    description:
      'One filter_environment resource (id `sandbox`); attributes python, sandboxed, virtual_environment, packages, devkit_modules',
    schema: Type.Object({ data: FilterEnvironmentResource }),
  },
  errors: { 503: "The sandbox's Python could not be asked (not installed on this server)" },
});
