import type { FilterTestError, FilterTestLocus, FilterTestReport } from '@antares/contract';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';

import { formatPropertyValue } from '@/lib/format';

const STATUS_BG: Record<string, string> = { ok: 'success', skipped: 'secondary', error: 'danger', timeout: 'warning', crash: 'danger' };

function ms(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value.toFixed(2)} ms` : 'n/a';
}

/** An error of the filter code: type, message and traceback (red text, except inside a red alert). */
function ErrorDetails({ error, inAlert = false }: { error: FilterTestError; inAlert?: boolean }) {
  return (
    <>
      <span className={inAlert ? 'fw-semibold' : 'text-danger'}>
        {error.type}: {error.message}
      </span>
      {error.traceback && (
        <details>
          <summary>Traceback</summary>
          <pre className="small mb-0 text-wrap">{error.traceback}</pre>
        </details>
      )}
    </>
  );
}

function LocusRow({ locus }: { locus: FilterTestLocus }) {
  const properties = Object.entries(locus.new_properties ?? {});
  return (
    <tr data-testid="test-locus-row">
      <td>
        <Link to={`/loci/${encodeURIComponent(locus.locus_id)}`} target="_blank" rel="noreferrer">
          {locus.locus_id}
        </Link>
      </td>
      <td>
        <Badge bg={STATUS_BG[locus.status] ?? 'secondary'} text={locus.status === 'timeout' ? 'dark' : undefined}>
          {locus.status}
        </Badge>
      </td>
      <td>
        {(locus.new_tags ?? []).map((tag) => (
          <code key={tag} className="me-1">
            {tag}
          </code>
        ))}
      </td>
      <td className="small">
        {properties.map(([name, value]) => (
          <div key={name}>
            <code>{name}</code> = {formatPropertyValue(value)}
          </div>
        ))}
      </td>
      <td className="numeric text-nowrap">{ms(locus.duration_ms)}</td>
      <td className="small">
        {locus.skip_reason && <div>{locus.skip_reason}</div>}
        {locus.error && <ErrorDetails error={locus.error} />}
        {locus.stdout && <pre className="small mb-0 text-wrap">{locus.stdout}</pre>}
      </td>
    </tr>
  );
}

/** The dry-run report: whether the code loaded, what it declares, per-locus results, counts and timing. */
export function TestReport({ report }: { report: FilterTestReport }) {
  if (!report.loaded) {
    return (
      <Alert variant="danger" data-testid="test-report">
        <Alert.Heading as="h3" className="h6">
          The code did not load
        </Alert.Heading>
        {report.load_error && <ErrorDetails error={report.load_error} inAlert />}
        {report.stdout && <pre className="small mt-2 mb-0 text-wrap">{report.stdout}</pre>}
      </Alert>
    );
  }
  const { counts, timing, outputs } = report;
  return (
    <div data-testid="test-report">
      {report.stopped_early && (
        <Alert variant="warning" className="py-2" data-testid="test-stopped-early">
          {report.stopped_early}.
        </Alert>
      )}
      <p className="mb-1" data-testid="test-summary">
        Ran on {counts.loci} loci: {counts.ok} ok, {counts.skipped} skipped, {counts.error} failed; {counts.tagged} tagged.
      </p>
      <p className="small text-body-secondary mb-2">
        Time per locus: p50 {ms(timing.p50_ms)}, p90 {ms(timing.p90_ms)}, p99 {ms(timing.p99_ms)}.
      </p>
      {outputs?.class_name && (
        <p className="small mb-1" data-testid="test-filter-class">
          Ran <code>{outputs.class_name}</code>
          {outputs.filter_classes.length > 1 && (
            <>
              {' '}
              of the filters the code defines:{' '}
              {outputs.filter_classes.map((name, index) => (
                <span key={name}>
                  {index > 0 && ', '}
                  <code>{name}</code>
                </span>
              ))}
            </>
          )}
          .
        </p>
      )}
      {(report.dependencies ?? []).length > 0 && (
        <p className="small mb-1" data-testid="test-dependencies">
          Ran first, as this code reads properties they write:{' '}
          {(report.dependencies ?? []).map((d, index) => (
            <span key={d.filter_version_id ?? `private-${index}`}>
              {index > 0 && ', '}
              {d.filter_id ? <Link to={`/filters/${d.filter_id}`}>{d.name}</Link> : d.name}{' '}
              {d.loaded ? `(ok on ${d.counts.ok} of ${d.counts.loci} loci)` : `(did not load: ${d.load_error?.message ?? 'unknown error'})`}
            </span>
          ))}
          .
        </p>
      )}
      {outputs && (
        <p className="small mb-2">
          Declares tags{' '}
          {outputs.tags.length
            ? outputs.tags.map((t) => (
                <code key={t.name} className="me-1">
                  {t.name}
                </code>
              ))
            : 'none'}
          ; locus properties{' '}
          {outputs.locus_properties.length
            ? outputs.locus_properties.map((p) => (
                <code key={p.name} className="me-1">
                  {p.name} ({p.type})
                </code>
              ))
            : 'none'}
          .
        </p>
      )}
      {report.stdout && (
        <details className="mb-2">
          <summary className="small">Printed while loading</summary>
          <pre className="small mb-0 text-wrap">{report.stdout}</pre>
        </details>
      )}
      {report.loci.length > 0 && (
        <Table responsive size="sm" className="align-middle" id="test-loci">
          <caption className="visually-hidden">Dry-run results per locus</caption>
          <thead>
            <tr>
              <th scope="col">Locus</th>
              <th scope="col">Status</th>
              <th scope="col">New tags</th>
              <th scope="col">New properties</th>
              <th scope="col" className="numeric">
                Time
              </th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {report.loci.map((locus) => (
              <LocusRow key={locus.locus_id} locus={locus} />
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
