import Table from 'react-bootstrap/Table';

import { ErrorState } from '@/components/ErrorState';
import { SkeletonRows } from '@/components/SkeletonRows';
import { type CatalogSample, useCatalogSamples } from '@/features/catalogs/api/get-catalog-samples';
import { formatCatalogValue } from '@/lib/format';

/** A catalog's sample rows, every column as the catalog has it (values unrounded; numeric columns right-aligned). */
function SampleTable({ name, samples }: { name: string; samples: CatalogSample[] }) {
  const columns = [...new Set(samples.flatMap((sample) => Object.keys(sample.data)))];
  const numeric = new Set(
    columns.filter((column) => samples.every((sample) => sample.data[column] == null || typeof sample.data[column] === 'number')),
  );
  return (
    <section className="mb-4" aria-labelledby={`catalog-${name}`}>
      <h2 id={`catalog-${name}`} className="h5 font-monospace">
        {name}
      </h2>
      <Table responsive size="sm" striped className="small" data-testid="catalog-sample-table">
        <caption className="visually-hidden">Sample rows of {name}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={numeric.has(column) ? 'numeric' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {samples.map((sample) => (
            <tr key={sample.id}>
              {columns.map((column) => (
                <td key={column} className={numeric.has(column) ? 'text-nowrap numeric' : 'text-nowrap'}>
                  {formatCatalogValue(sample.data[column])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}

export function Component() {
  const samples = useCatalogSamples();
  return (
    <>
      <h1 className="h3">Catalogs</h1>
      <p className="text-body-secondary">
        ANTARES cross-matches every locus against these astronomical catalogs: within 1 arcsec for point sources, and within each object's
        own radius for extended sources. Below are a few sample rows of each catalog; a locus page lists all of its matches.
      </p>
      <p className="text-body-secondary" data-testid="devkit-note">
        Filters see the matched rows as <code>locus.catalog_objects</code> (a dictionary of rows by catalog name). To get the same data in
        the ANTARES developer kit, search the catalogs at a position with <code>dk.search_catalogs(ra, dec)</code> (after{' '}
        <code>import antares.devkit as dk</code>), or call the API's <code>/v1/catalog_search/&#123;ra&#125;/&#123;dec&#125;</code>.
      </p>
      {samples.isError ? (
        <ErrorState title="Error Loading Catalogs" message="There was an error loading catalog data." error={samples.error} />
      ) : samples.isPending ? (
        <Table size="sm" aria-busy="true">
          <tbody>
            <SkeletonRows rows={10} columns={5} />
          </tbody>
        </Table>
      ) : samples.data.size === 0 ? (
        <p>No catalogs are loaded on this server yet.</p>
      ) : (
        [...samples.data.entries()].map(([name, rows]) => <SampleTable key={name} name={name} samples={rows} />)
      )}
    </>
  );
}
