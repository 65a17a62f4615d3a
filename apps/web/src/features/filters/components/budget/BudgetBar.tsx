import { budgetBar } from './budget-view';

/**
 * A filter's share of the budget of all enabled filters, with a mark where its own share ends. Bootstrap's
 * progress markup written out: react-bootstrap's ProgressBar puts the label on the wrapper, where the
 * progressbar role is not, which axe counts as a nameless progress bar.
 */
export function BudgetBar({ share, allowedShare }: { share: number | null; allowedShare: number }) {
  const bar = budgetBar(share, allowedShare);
  return (
    <div className="position-relative" style={{ minWidth: '8rem' }} title={bar.label}>
      <div className="progress" style={{ height: '0.75rem' }}>
        <div
          className={`progress-bar bg-${bar.variant}`}
          role="progressbar"
          aria-label={bar.label}
          aria-valuenow={Math.round(bar.percent)}
          aria-valuemin={0}
          aria-valuemax={100}
          style={{ width: `${bar.percent}%` }}
        />
      </div>
      <span
        aria-hidden="true"
        className="position-absolute top-0 border-start border-2 border-dark"
        style={{ left: `${bar.allowedPercent}%`, height: '0.75rem' }}
      />
    </div>
  );
}
