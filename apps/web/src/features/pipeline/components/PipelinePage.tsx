import { useEnabledFilters } from '@/features/pipeline/api/get-enabled-filters';

import { PipelineFilterCard } from './PipelineFilterCard';

const STAGES: { title: string; text: string }[] = [
  {
    title: 'Inputs',
    text: 'ANTARES receives real-time alerts from time-domain surveys (ZTF today, Rubin Observatory LSST next): every change in brightness the survey detects, with its recent history and image cutouts.',
  },
  {
    title: 'Level 1 filters',
    text: 'Bogus detections and alerts taken in poor conditions (low real/bogus score, bad pixels, bad seeing) are removed before anything is stored.',
  },
  {
    title: 'Ingestion and aggregation',
    text: 'Each alert is associated with a locus: the nearest known object within 1 arcsecond, or a new one. Loci are matched to nearby objects in astronomical catalogs and to gravitational-wave sky maps, and their properties and lightcurves are recomputed.',
  },
  {
    title: 'Level 2 filters',
    text: 'User-submitted filters (Python code reviewed by the ANTARES team) look for scientifically interesting loci and tag them or add properties.',
  },
  {
    title: 'Output',
    text: 'Watch lists send chat notifications when a watched position gets a new alert, and every tag is a stream that downstream systems (brokers, TOMs, follow-up facilities) can subscribe to.',
  },
];

export function Component() {
  const filters = useEnabledFilters();
  return (
    <>
      <h1 className="h3 mb-3">The ANTARES Pipeline</h1>
      <ol className="list-unstyled">
        {STAGES.map((stage, index) => (
          <li key={stage.title} className="d-flex gap-3 mb-3">
            <span className="badge rounded-pill text-bg-primary align-self-start mt-1" aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <h2 className="h5 mb-1">{stage.title}</h2>
              <p className="mb-0">{stage.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <h2 className="h4 mt-4">Filters running now</h2>
      {filters.isPending ? (
        <p>Loading...</p>
      ) : filters.isError || filters.data.length === 0 ? (
        <p className="text-body-secondary">No Level 2 filters are enabled on this server yet.</p>
      ) : (
        filters.data.map((filter) => <PipelineFilterCard key={filter.id} filter={filter} />)
      )}
    </>
  );
}
