import { PropertyTable } from './PropertyTable';

export function Component() {
  return (
    <>
      <h1 className="h3 mb-3">Properties</h1>
      <p className="text-body-secondary">
        Every locus and alert carries properties: survey fields copied from the alert packets, values computed by ANTARES, and values
        written by filters. These are the names you can search on and read in filters.
      </p>
      <PropertyTable
        resource="loci_properties"
        title="Locus Properties"
        errorTitle="Error Loading Locus properties"
        errorMessage="There was an error loading locus properties."
      />
      <PropertyTable
        resource="alert_properties"
        title="Alert Properties"
        errorTitle="Error Loading Alert properties"
        errorMessage="There was an error loading alert properties."
      />
    </>
  );
}
