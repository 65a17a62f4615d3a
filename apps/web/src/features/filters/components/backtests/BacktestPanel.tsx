import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';

import {
  type Backtest,
  BACKTESTS_KEY,
  FINISHED_STATES,
  startCodeBacktest,
  startVersionBacktest,
  useLiveBacktest,
  useVersionBacktests,
} from '@/features/filters/api/backtests';
import { firstError } from '@/lib/api-client';

import { type BacktestForm, backtestRequest, EMPTY_FORM } from './backtest-form';
import { BacktestProgress } from './BacktestProgress';

// The results (tables and the nightly chart) load with the first finished backtest shown.
const BacktestReport = lazy(() => import('./BacktestReport'));

/** What a panel backtests: a saved version, or the code in the editor (not saved yet). */
export type BacktestTarget = { filterId: string; versionId: string } | { code: string; filterClass: string };

/**
 * Backtest: the selected version (or the editor's unsaved code) replayed over the stored alerts as a background job (a time window,
 * an optional locus search, a cap on loci), with its progress streamed from the server and, when it
 * ends, what it would have tagged night by night, its errors and its cost. Shows a version's latest
 * backtest on arrival (the server lists no backtests of unsaved code).
 */
export function BacktestPanel({ target }: { target: BacktestTarget }) {
  const client = useQueryClient();
  const version = 'versionId' in target ? target : null;
  const listed = useVersionBacktests(version?.filterId ?? null, version?.versionId ?? null);
  const [form, setForm] = useState<BacktestForm>(EMPTY_FORM);
  const [started, setStarted] = useState<Backtest | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = useLiveBacktest(started ?? listed.data?.[0] ?? null);
  const checked = backtestRequest(form);
  const problem = 'problem' in checked ? checked.problem : null;
  const edit = (change: Partial<BacktestForm>) => setForm((f) => ({ ...f, ...change }));
  const active = shown !== null && (shown.state === 'queued' || shown.state === 'running');

  const start = async () => {
    if (!('request' in checked) || starting) return;
    setStarting(true);
    setError(null);
    try {
      setStarted(
        version
          ? await startVersionBacktest(version.filterId, version.versionId, checked.request)
          : await startCodeBacktest('code' in target ? target.code : '', 'code' in target ? target.filterClass : '', checked.request),
      );
      void client.invalidateQueries({ queryKey: BACKTESTS_KEY });
    } catch (failure) {
      const detail = firstError(failure);
      setError(`Error starting the backtest: ${detail.detail ?? detail.title ?? 'unknown error'}`);
    } finally {
      setStarting(false);
    }
  };

  return (
    <Card className="mt-3" as="section" aria-labelledby="backtest-panel-title" data-testid="backtest-panel">
      <Card.Header>
        <h2 className="h6 mb-0" id="backtest-panel-title">
          {version ? 'Backtest this version' : 'Backtest this code'}
        </h2>
      </Card.Header>
      <Card.Body>
        <p className="small text-body-secondary">
          Replays {version ? 'this version' : 'the code in the editor'} over the stored alerts, each locus alert by alert as Level 2 saw it,
          in the background and without writing anything: see what it would have tagged each night, its errors and its cost.
        </p>
        <Form
          className="d-flex flex-wrap align-items-end gap-3 mb-3"
          onSubmit={(event) => {
            event.preventDefault();
            void start();
          }}
        >
          <Form.Group controlId="backtest-unit">
            <Form.Label className="small mb-1">Window in</Form.Label>
            <Form.Select
              size="sm"
              value={form.unit}
              onChange={(e) => edit({ unit: e.target.value as BacktestForm['unit'], from: '', to: '' })}
            >
              <option value="date">Dates (UTC)</option>
              <option value="mjd">MJD</option>
            </Form.Select>
          </Form.Group>
          <Form.Group controlId="backtest-from">
            <Form.Label className="small mb-1">From</Form.Label>
            <Form.Control
              size="sm"
              type={form.unit === 'date' ? 'date' : 'number'}
              step="any"
              placeholder={form.unit === 'mjd' ? 'start of the archive' : undefined}
              value={form.from}
              onChange={(e) => edit({ from: e.target.value })}
            />
          </Form.Group>
          <Form.Group controlId="backtest-to">
            <Form.Label className="small mb-1">To</Form.Label>
            <Form.Control
              size="sm"
              type={form.unit === 'date' ? 'date' : 'number'}
              step="any"
              placeholder={form.unit === 'mjd' ? 'end of the archive' : undefined}
              value={form.to}
              onChange={(e) => edit({ to: e.target.value })}
            />
          </Form.Group>
          <Form.Group controlId="backtest-max-loci">
            <Form.Label className="small mb-1">At most loci</Form.Label>
            <Form.Control
              size="sm"
              type="number"
              min={1}
              className="w-auto"
              value={form.maxLoci}
              onChange={(e) => edit({ maxLoci: e.target.value })}
            />
          </Form.Group>
          <Form.Group controlId="backtest-search" className="flex-grow-1">
            <Form.Label className="small mb-1">Locus search (optional, the /v1/loci elasticsearch_query JSON)</Form.Label>
            <Form.Control
              as="textarea"
              rows={1}
              size="sm"
              placeholder='{"query": {"bool": {"filter": [{"terms": {"tags": ["nuclear_transient"]}}]}}}'
              value={form.search}
              onChange={(e) => edit({ search: e.target.value })}
            />
          </Form.Group>
          <Button type="submit" variant="info" size="sm" disabled={Boolean(problem) || starting || active}>
            {starting ? 'Starting...' : 'Start backtest'}
          </Button>
        </Form>
        {problem && <p className="small text-danger">{problem}</p>}
        {error && (
          <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert">
            {error}
          </Alert>
        )}
        {shown && <BacktestProgress backtest={shown} />}
        {shown?.results && FINISHED_STATES.has(shown.state) && (
          <Suspense fallback={<p role="status">Loading the results...</p>}>
            <BacktestReport backtest={shown} results={shown.results} />
          </Suspense>
        )}
      </Card.Body>
    </Card>
  );
}
