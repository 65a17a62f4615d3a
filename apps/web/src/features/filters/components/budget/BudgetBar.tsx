import ProgressBar from 'react-bootstrap/ProgressBar';

import { budgetBar } from './budget-view';

/** A filter's share of the budget of all enabled filters, with a mark where its own share ends. */
export function BudgetBar({ share, allowedShare, testId }: { share: number | null; allowedShare: number; testId?: string }) {
  const bar = budgetBar(share, allowedShare);
  return (
    <div className="position-relative" style={{ minWidth: '8rem' }} title={bar.label} data-testid={testId}>
      <ProgressBar now={bar.percent} variant={bar.variant} aria-label={bar.label} style={{ height: '0.75rem' }} />
      <span
        aria-hidden="true"
        className="position-absolute top-0 border-start border-2 border-dark"
        style={{ left: `${bar.allowedPercent}%`, height: '0.75rem' }}
      />
      <span className="visually-hidden">{bar.label}</span>
    </div>
  );
}
