import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';

import { type Backtest, BACKTESTS_KEY, cancelBacktest } from '@/features/filters/api/backtests';
import { firstError } from '@/lib/api-client';

import { durationText } from './backtest-form';

const STATE_BG: Record<string, string> = {
  queued: 'secondary',
  running: 'primary',
  done: 'success',
  failed: 'danger',
  cancelled: 'warning',
};

/** A backtest's state and progress (loci done of total, alert-steps replayed, ETA), with Cancel while it is active. */
export function BacktestProgress({ backtest }: { backtest: Backtest }) {
  const client = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { progress, state } = backtest;
  const active = state === 'queued' || state === 'running';
  const percent = Math.round((progress.fraction ?? 0) * 100);
  const total = progress.loci_total === null ? '?' : progress.loci_total.toLocaleString('en-US');
  const text =
    `${progress.loci_done.toLocaleString('en-US')} of ${total} loci, ${progress.steps_done.toLocaleString('en-US')} alerts replayed` +
    (progress.eta_seconds !== null && state === 'running' ? `, about ${durationText(progress.eta_seconds)} left` : '');

  const cancel = async () => {
    setCancelling(true);
    setError(null);
    try {
      await cancelBacktest(backtest.id);
      void client.invalidateQueries({ queryKey: BACKTESTS_KEY });
    } catch (failure) {
      const detail = firstError(failure);
      setError(`Error cancelling the backtest: ${detail.detail ?? detail.title ?? 'unknown error'}`);
      setCancelling(false);
    }
  };

  return (
    <div className="mb-3" data-testid="backtest-progress">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
        <span>
          Backtest {backtest.id}:{' '}
          <Badge bg={STATE_BG[state] ?? 'secondary'} data-testid="backtest-state">
            {state}
          </Badge>
        </span>
        {active && (
          <Button size="sm" variant="outline-danger" onClick={() => void cancel()} disabled={cancelling}>
            {cancelling ? 'Cancelling...' : 'Cancel backtest'}
          </Button>
        )}
      </div>
      {/* Bootstrap 5.3's markup: the role and its values on the outer element, which the label names. */}
      <div
        className="progress"
        role="progressbar"
        aria-label={`Backtest ${backtest.id} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent} %: ${text}`}
        data-testid="backtest-progress-bar"
      >
        <div className={`progress-bar${active ? ' progress-bar-striped progress-bar-animated' : ''}`} style={{ width: `${percent}%` }} />
      </div>
      <p className="small mb-0 mt-1" role="status" aria-live="polite" data-testid="backtest-progress-text">
        {text}
        {progress.steps_per_second !== null && ` (${progress.steps_per_second.toLocaleString('en-US')} alerts/s)`}.
      </p>
      {backtest.error && state !== 'cancelled' && (
        <Alert variant="danger" className="mt-2 mb-0 py-2" data-testid="backtest-error">
          <pre className="small mb-0 text-wrap">{backtest.error}</pre>
        </Alert>
      )}
      {error && (
        <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert" className="mt-2">
          {error}
        </Alert>
      )}
    </div>
  );
}
