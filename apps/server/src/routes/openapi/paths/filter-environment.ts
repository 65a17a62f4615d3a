/** What filters may import in the sandbox (routes/filter-environment). */
import { fail, jsonApi, op, type Paths } from '../shared.ts';

export const filterEnvironmentPaths: Paths = {
  '/v1/filter_environment': {
    get: op('get', 'public', {
      tags: ['Filters'],
      operationId: 'get_filter_environment',
      summary: 'The Python packages and devkit modules filters may import',
      description:
        "Read from the sandbox's Python on this server: its version, each package (`name`, `import`, installed `version` or null, `debian` package, `note`) and the devkit module paths (`devkit_modules`).",
      responses: {
        200: jsonApi('One filter_environment resource (id `sandbox`); attributes python, packages, devkit_modules'),
        ...fail({ 503: "The sandbox's Python could not be asked (not installed on this server)" }),
      },
    }),
  },
};
