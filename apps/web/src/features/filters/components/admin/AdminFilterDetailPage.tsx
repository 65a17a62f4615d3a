import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link, useParams } from 'react-router';

import { useFilter, useVersions } from '@/features/filters/api/filters';
import { BacktestComparison } from '@/features/filters/components/backtests/BacktestComparison';
import { FilesPanel } from '@/features/filters/components/files/FilesPanel';
import { VersionFiles } from '@/features/filters/components/files/VersionFiles';
import { FilterPageState } from '@/features/filters/components/FilterPageState';
import { FilterSummary } from '@/features/filters/components/FilterSummary';
import { usePublicToggle } from '@/features/filters/components/use-public-toggle';
import { useVersionSelection } from '@/features/filters/components/use-version-selection';
import { VersionsViewer } from '@/features/filters/components/versions/VersionsViewer';

import { TransitionButtons } from './TransitionButtons';
import { VersionsSidebar } from './VersionsSidebar';

/**
 * Filter detail (Admin view): the filter page plus a versions sidebar and the review transition buttons,
 * with the files the selected version uses and the comparison of two backtests beside them.
 */
export function Component() {
  const filterId = useParams().filterId ?? '';
  // Another filter is another page: its selection and drafts start afresh.
  return <AdminFilterDetail key={filterId} filterId={filterId} />;
}

function AdminFilterDetail({ filterId }: { filterId: string }) {
  const filter = useFilter(filterId);
  const versions = useVersions(filterId);
  const [selectedId, select] = useVersionSelection(filter.data, versions.data);
  const visibility = usePublicToggle();

  if (!filter.isSuccess) return <FilterPageState filter={filter} />;
  return (
    <section>
      <p className="small mb-2">
        <Link to="/admin/filters">Back to all filters</Link>
      </p>
      <FilterSummary filter={filter.data} publicSwitch={visibility.switchFor(filter.data, { label: 'Public' })} />
      {visibility.elements}
      <Row>
        <Col md={3} className="mb-3">
          <VersionsSidebar versions={versions.data ?? []} selectedId={selectedId} onSelect={select} />
        </Col>
        <Col md={9}>
          <VersionsViewer
            key={filter.data.id}
            filter={filter.data}
            versions={versions}
            selectedId={selectedId}
            onSelect={select}
            mayAct
            versionActions={(version) => (
              <>
                <TransitionButtons key={version.id} filter={filter.data} version={version} />
                <VersionFiles filterId={filter.data.id} version={version} />
                <BacktestComparison filterId={filter.data.id} versionIds={(versions.data ?? []).map((v) => v.id)} />
              </>
            )}
          />
          <FilesPanel filter={filter.data} mayAct />
        </Col>
      </Row>
    </section>
  );
}
