import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';

import {
  FILTER_TEST_DEFAULT_LOCI,
  FILTER_TEST_MAX_LOCI,
  type FilterTestReport,
  parseLocusIds,
  runFilterTest,
  type TestLoci,
  testLociProblem,
} from '@/features/filters/api/filter-test';
import { validateFilterClass } from '@/features/filters/components/filter-rules';
import { firstError } from '@/lib/api-client';

import { TestReport } from './TestReport';

/**
 * Test: a dry run of the code in the editor on the most recent loci or on chosen ones, in the server's
 * sandbox; nothing is stored. The report shows below.
 */
export function TestPanel({
  code,
  filterClass = '',
  onReport,
}: {
  code: string;
  /** The filter to run when the code defines several; blank: the last one it defines. */
  filterClass?: string;
  /** Told each report (the version editor offers the filter classes it found). */
  onReport?: (report: FilterTestReport) => void;
}) {
  const [source, setSource] = useState<'recent' | 'ids'>('recent');
  const [lastN, setLastN] = useState(String(FILTER_TEST_DEFAULT_LOCI));
  const [idsText, setIdsText] = useState('');
  const [running, setRunning] = useState(false);
  const [report, setReport] = useState<FilterTestReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const loci: TestLoci = source === 'ids' ? { locusIds: parseLocusIds(idsText) } : { lastN: Number(lastN) };
  const problem = testLociProblem(loci) ?? (validateFilterClass(filterClass) ? 'Enter a valid filter class, or leave it blank.' : null);

  const run = async () => {
    if (problem || running) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRunning(true);
    setError(null);
    setReport(null);
    try {
      const result = await runFilterTest(code, loci, controller.signal, filterClass);
      setReport(result);
      onReport?.(result);
    } catch (failure) {
      if (controller.signal.aborted) return;
      const detail = firstError(failure);
      setError(`Error testing filter: ${detail.detail ?? detail.title ?? 'unknown error'}`);
    } finally {
      if (abort.current === controller) setRunning(false);
    }
  };

  return (
    <Card className="mt-3" as="section" aria-labelledby="test-panel-title">
      <Card.Header>
        <h2 className="h6 mb-0" id="test-panel-title">
          Test this code
        </h2>
      </Card.Header>
      <Card.Body>
        <p className="small text-body-secondary">
          Runs the code in the editor on real loci in the ANTARES sandbox, without saving anything: see what it tags and sets, what it
          prints, and how long it takes.
        </p>
        <Form
          className="d-flex flex-wrap align-items-end gap-3 mb-3"
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
        >
          <fieldset className="d-flex flex-wrap align-items-center gap-3">
            <legend className="visually-hidden">Loci to test on</legend>
            <Form.Check
              type="radio"
              id="test-source-recent"
              name="test-source"
              label="Most recent loci"
              checked={source === 'recent'}
              onChange={() => setSource('recent')}
            />
            <Form.Control
              type="number"
              size="sm"
              min={1}
              max={FILTER_TEST_MAX_LOCI}
              className="w-auto"
              aria-label="Number of recent loci"
              value={lastN}
              disabled={source !== 'recent'}
              onChange={(e) => setLastN(e.target.value)}
            />
            <Form.Check
              type="radio"
              id="test-source-ids"
              name="test-source"
              label="These locus ids"
              checked={source === 'ids'}
              onChange={() => setSource('ids')}
            />
          </fieldset>
          {source === 'ids' && (
            <Form.Control
              as="textarea"
              rows={2}
              size="sm"
              className="flex-grow-1"
              aria-label="Locus ids to test on"
              placeholder="ANT2026..., ANT2026..."
              value={idsText}
              onChange={(e) => setIdsText(e.target.value)}
            />
          )}
          <Button type="submit" variant="info" size="sm" disabled={Boolean(problem) || running || code.trim() === ''}>
            {running ? 'Testing...' : 'Test'}
          </Button>
        </Form>
        {problem && (source === 'recent' || idsText.trim() !== '') && <p className="small text-danger">{problem}</p>}
        {error && (
          <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert">
            {error}
          </Alert>
        )}
        {running && <p role="status">Running the filter in the sandbox...</p>}
        {report && <TestReport report={report} />}
      </Card.Body>
    </Card>
  );
}
