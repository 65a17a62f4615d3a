import type { FilterEnvironment } from '@antares/contract';

import { ErrorState } from '@/components/ErrorState';
import { useFilterEnvironment } from '@/features/filters/api/filter-environment';

/**
 * What a filter may import, as the server's sandbox provides it (GET /v1/filter_environment, read from
 * the sandbox's Python): the Python version, the packages with their installed versions, and the devkit
 * module paths. Shown on the Filters page and in the FAQ.
 */
export function FilterEnvironmentList() {
  const environment = useFilterEnvironment();
  if (environment.isPending) return <p className="text-body-secondary">Loading the filter environment…</p>;
  if (environment.isError)
    return (
      <ErrorState
        title="Error Loading the Filter Environment"
        message="The list of packages available to filters could not be loaded."
        error={environment.error}
        asJson={false}
      />
    );
  return <EnvironmentTable environment={environment.data} />;
}

function EnvironmentTable({ environment }: { environment: FilterEnvironment }) {
  return (
    <div data-testid="filter-environment">
      <p>
        Filters run in a sandbox with <strong data-testid="filter-environment-python">Python {environment.python}</strong>, its standard
        library and the packages below; nothing else can be installed, and the sandbox has no network. The devkit is importable under each
        of the module paths published filters use:{' '}
        {environment.devkit_modules.map((module, index) => (
          <span key={module}>
            {index > 0 && ', '}
            <code>{module}</code>
          </span>
        ))}{' '}
        (for example <code>import antares.devkit as dk</code> or <code>from antares_devkit.models import BaseFilter</code>).
      </p>
      <table className="table table-sm align-middle">
        <caption className="caption-top">Python packages available to filters, with the versions installed on this server</caption>
        <thead>
          <tr>
            <th scope="col">Package</th>
            <th scope="col">Import</th>
            <th scope="col">Version</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {environment.packages.map((pkg) => (
            <tr key={pkg.import} data-package={pkg.import}>
              <td>{pkg.name}</td>
              <td>
                <code>import {pkg.import}</code>
              </td>
              <td>{pkg.version ?? <span className="text-body-secondary">not installed on this server</span>}</td>
              <td>{pkg.note}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
