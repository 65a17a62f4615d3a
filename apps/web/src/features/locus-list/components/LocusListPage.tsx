import { useState } from 'react';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';

import { defaultLocusListQuery, type SearchFilter } from '@/lib/locus-query';

import { LocusResults } from './LocusResults';
import { type PanelView, SearchPanel } from './search-panel/SearchPanel';
import { useLocusListQuery } from './use-locus-list-query';

export function Component() {
  const [query, setQuery] = useLocusListQuery();
  const [panelView, setPanelView] = useState<PanelView>('filters');
  // Applying or removing a filter goes back to page 1 and keeps sort and page size.
  const applyFilters = (filters: SearchFilter[]) =>
    setQuery({ ...defaultLocusListQuery(filters), sortBy: query.sortBy, sortDesc: query.sortDesc, perPage: query.perPage });

  return (
    <>
      <h1 className="visually-hidden">Explore Loci</h1>
      <Row className="g-4">
        <Col lg={4} className="locus-search-col">
          <SearchPanel
            key={JSON.stringify(query.filters)}
            filters={query.filters}
            sort={{ sortBy: query.sortBy, sortDesc: query.sortDesc }}
            onApply={applyFilters}
            view={panelView}
            onViewChange={setPanelView}
          />
        </Col>
        <Col lg={8} className="locus-results-col">
          <LocusResults query={query} onQueryChange={setQuery} />
        </Col>
      </Row>
    </>
  );
}
