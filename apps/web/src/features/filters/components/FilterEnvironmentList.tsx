import type { FilterEnvironment, FilterEnvironmentPackage } from '@antares/contract';

import { ErrorState } from '@/components/ErrorState';
import { useFilterEnvironment } from '@/features/filters/api/filter-environment';

/**
 * What a filter can import, as the server's sandbox provides it (GET /v1/filter_environment, read from
 * the configured interpreter inside the sandbox): the Python version, the promised packages with their
 * installed versions, every other module installed on this server (folded unless `expanded`), and the
 * devkit module paths. Shown on the Filter Environment page, the Filters page and in the FAQ.
 */
export function FilterEnvironmentList({ expanded = false }: { expanded?: boolean }) {
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
  return <EnvironmentTables environment={environment.data} expanded={expanded} />;
}

function EnvironmentTables({ environment, expanded }: { environment: FilterEnvironment; expanded: boolean }) {
  const promised = environment.packages.filter((p) => p.promised);
  const others = environment.packages.filter((p) => !p.promised);
  return (
    <div data-testid="filter-environment">
      <p>
        Filters run in a sandbox with <strong data-testid="filter-environment-python">Python {environment.python}</strong>, its standard
        library, the packages below and every other module installed on this server (listed after them); the server&apos;s operator can
        install more that authors ask for. The sandbox has no network. The devkit is importable under each of the module paths published
        filters use:{' '}
        {environment.devkit_modules.map((module, index) => (
          <span key={module}>
            {index > 0 && ', '}
            <code>{module}</code>
          </span>
        ))}{' '}
        (for example <code>import antares.devkit as dk</code> or <code>from antares_devkit.models import BaseFilter</code>).
      </p>
      <table className="table table-sm align-middle" data-testid="filter-environment-promised">
        <caption className="caption-top">Python packages available to filters, with the versions installed on this server</caption>
        <PackageHead />
        <tbody>
          {promised.map((pkg) => (
            <PackageRow key={pkg.import} pkg={pkg} />
          ))}
        </tbody>
      </table>
      {others.length > 0 && (
        <details open={expanded} data-testid="filter-environment-others">
          <summary>
            {others.length} more {others.length === 1 ? 'module' : 'modules'} installed on this server
          </summary>
          <table className="table table-sm align-middle mt-2">
            <caption className="caption-top">Other modules filters can import here (what the operator added for filters is marked)</caption>
            <PackageHead />
            <tbody>
              {others.map((pkg) => (
                <PackageRow key={pkg.import} pkg={pkg} />
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}

function PackageHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Package</th>
        <th scope="col">Import</th>
        <th scope="col">Version</th>
        <th scope="col">Note</th>
      </tr>
    </thead>
  );
}

function PackageRow({ pkg }: { pkg: FilterEnvironmentPackage }) {
  const note = [pkg.location === 'environment' ? 'added for filters on this server' : '', pkg.note].filter(Boolean).join('; ');
  return (
    <tr data-package={pkg.import}>
      <td>{pkg.name}</td>
      <td>
        <code>import {pkg.import}</code>
      </td>
      <td>{pkg.version ?? <span className="text-body-secondary">{pkg.location ? 'no version' : 'not installed on this server'}</span>}</td>
      <td>{note}</td>
    </tr>
  );
}
