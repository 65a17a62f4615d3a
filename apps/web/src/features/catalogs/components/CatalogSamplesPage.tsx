import Table from 'react-bootstrap/Table';
import { ErrorState } from '../../../components/ErrorState';
import { SkeletonRows } from '../../../components/SkeletonRows';
import { formatPropertyValue } from '../../../lib/format';
import { useCatalogSamples, type CatalogSample } from '../api/get-catalog-samples';

function SampleTable({ name, samples }: { name: string; samples: CatalogSample[] }) {
  const columns = [...new Set(samples.flatMap((sample) => Object.keys(sample.data)))];
  return (
    <section className="mb-4" aria-labelledby={`catalog-${name}`}>
      <h2 id={`catalog-${name}`} className="h5 font-monospace">
        {name}
      </h2>
      <Table responsive size="sm" striped className="small">
        <caption className="visually-hidden">Sample rows of {name}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {samples.map((sample) => (
            <tr key={sample.id}>
              {columns.map((column) => (
                <td key={column} className="text-nowrap">
                  {formatPropertyValue(sample.data[column])}
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
        ANTARES cross-matches every locus against these astronomical catalogs. Below are a few sample rows of each. Filters see the matched rows as{' '}
        <code>locus.catalog_objects</code>; the same data is available through the ANTARES developer kit (and{' '}
        <code>antares_client.search.get_catalog_samples()</code>), so you can test filters that use it.
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
