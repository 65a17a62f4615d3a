import { type FormEvent, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Nav from 'react-bootstrap/Nav';
import Spinner from 'react-bootstrap/Spinner';

import { MultiSelect } from '@/components/MultiSelect';
import { RangeSlider } from '@/components/RangeSlider';
import { useStatistics } from '@/features/locus-list/api/get-statistics';
import { PythonScriptView } from '@/features/locus-list/components/PythonScriptView';
import { firstError } from '@/lib/api-client';
import { getConfig } from '@/lib/config';
import type { LocusListQuery, SearchFilter } from '@/lib/locus-query';

import { ActiveFilters } from './ActiveFilters';
import { ConeSearchFields } from './ConeSearchFields';
import {
  buildFilters,
  FIRST_FIELD,
  initialControls,
  LATEST_FIELD,
  MEASUREMENTS_FIELD,
  sameFilters,
  type SearchControls,
} from './search-controls';
import { TimeRangeSelect } from './TimeRangeSelect';

/** Slider bounds used until the statistics arrive (spec: 1 to 100). */
const DEFAULT_BOUNDS = { min: 1, max: 100 };

function appliedMeasurements(filters: SearchFilter[], bounds: { min: number; max: number }): [number, number] {
  const applied = filters.find((filter) => filter.type === 'range' && filter.field === MEASUREMENTS_FIELD);
  const value = (applied?.value ?? {}) as { gte?: number; lte?: number };
  return [value.gte ?? bounds.min, value.lte ?? bounds.max];
}

export type PanelView = 'filters' | 'script';

/**
 * The side search panel: the filter controls, or the script view of the applied query. It is keyed
 * by the applied filters (see LocusListPage), so every filter change remounts the controls in their
 * reset state; the chosen view lives in the page so that it survives that.
 */
export function SearchPanel({
  filters,
  onApply,
  sort,
  view,
  onViewChange,
}: {
  filters: SearchFilter[];
  /** The list's sort, which the Script tab's script follows. */
  sort: Pick<LocusListQuery, 'sortBy' | 'sortDesc'>;
  onApply: (filters: SearchFilter[]) => void;
  view: PanelView;
  onViewChange: (view: PanelView) => void;
}) {
  const statistics = useStatistics(filters);
  const [controls, setControls] = useState<SearchControls>(() => initialControls(filters));
  const { min_num_measurements: lowest = null, max_num_measurements: highest = null } = statistics.data ?? {};
  // No matches, no range: the slider is not offered (a 1-100 range would be made up).
  const noMeasurements = statistics.isSuccess && (lowest === null || highest === null);
  const bounds = statistics.data && lowest !== null && highest !== null ? { min: lowest, max: highest } : DEFAULT_BOUNDS;
  const draft = useMemo(() => buildFilters(filters, controls, bounds), [filters, controls, bounds.min, bounds.max]); // eslint-disable-line react-hooks/exhaustive-deps
  const changed = !sameFilters(draft.filters, filters) || Object.keys(draft.errors).length > 0;
  const update = (patch: Partial<SearchControls>) => setControls((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(draft.errors).length > 0) return;
    onApply(draft.filters);
  };

  return (
    <Card as="aside" className="search-panel" aria-label="Search filters">
      <Card.Body>
        <h2 className="h5">Search</h2>
        <ActiveFilters filters={filters} onRemove={(index) => onApply(filters.filter((_, i) => i !== index))} />
        <Nav
          variant="tabs"
          activeKey={view}
          onSelect={(key) => onViewChange(key === 'script' ? 'script' : 'filters')}
          className="mb-3 small"
        >
          <Nav.Item>
            <Nav.Link eventKey="filters" as="button" type="button">
              Filters
            </Nav.Link>
          </Nav.Item>
          <Nav.Item>
            <Nav.Link eventKey="script" as="button" type="button">
              Script
            </Nav.Link>
          </Nav.Item>
        </Nav>
        {view === 'script' ? (
          <PythonScriptView query={{ filters, ...sort }} testId="panel-script" />
        ) : (
          <>
            {statistics.isError && (
              <Alert variant="danger" className="small">
                There was an error loading search dimensions and you will not be able to filter loci. Please refresh the page to try again
                and, if the problem persists, contact us at {getConfig().supportEmail}:
                <pre className="mb-0 mt-1 text-wrap">{JSON.stringify(firstError(statistics.error), null, 2)}</pre>
              </Alert>
            )}
            <Form onSubmit={submit} noValidate>
              <TimeRangeSelect
                id="latest-alert-within"
                label="Latest Alert Within"
                value={controls.latest}
                onChange={(latest) => update({ latest })}
                error={draft.errors[LATEST_FIELD]}
              />
              <TimeRangeSelect
                id="first-alert-within"
                label="First Alert Within"
                value={controls.first}
                onChange={(first) => update({ first })}
                error={draft.errors[FIRST_FIELD]}
              />
              {noMeasurements ? (
                <div className="mb-3 small" role="group" aria-labelledby="num-measurements-label" data-testid="num-measurements-empty">
                  <span id="num-measurements-label" className="fw-semibold">
                    Number of Measurements
                  </span>
                  <p className="text-body-secondary mb-0">No loci match these filters, so there is no range to choose from.</p>
                </div>
              ) : (
                bounds.min !== bounds.max && (
                  <div className="mb-3">
                    <RangeSlider
                      id="num-measurements"
                      label="Number of Measurements"
                      min={bounds.min}
                      max={bounds.max}
                      value={controls.measurements ?? appliedMeasurements(filters, bounds)}
                      onChange={(measurements) => update({ measurements })}
                    />
                  </div>
                )
              )}
              <ConeSearchFields value={controls.cone} onChange={(cone) => update({ cone })} errors={draft.errors} />
              {statistics.isPending ? (
                <div className="small text-body-secondary mb-3">
                  <Spinner size="sm" animation="border" role="status" aria-label="Loading search dimensions" /> Loading catalogs and tags...
                </div>
              ) : (
                <>
                  <MultiSelect
                    id="catalogs-select"
                    label="Catalogs"
                    options={statistics.data?.catalogs ?? {}}
                    selected={controls.catalogs}
                    onChange={(catalogs) => update({ catalogs })}
                    disabled={statistics.isError}
                  />
                  <MultiSelect
                    id="tags-select"
                    label="Tags"
                    options={statistics.data?.tags ?? {}}
                    selected={controls.tags}
                    onChange={(tags) => update({ tags })}
                    disabled={statistics.isError}
                  />
                </>
              )}
              <Form.Group className="mb-3" controlId="grav-wave-id">
                <Form.Label className="small fw-semibold mb-1">Gravitational Wave Event ID</Form.Label>
                <Form.Control
                  size="sm"
                  placeholder="e.g. S230518h"
                  value={controls.gravWaveId}
                  onChange={(event) => update({ gravWaveId: event.target.value })}
                />
              </Form.Group>
              {changed && (
                <Button type="submit" variant="primary" className="w-100" disabled={Object.keys(draft.errors).length > 0}>
                  Apply Filters
                </Button>
              )}
            </Form>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
