import Button from 'react-bootstrap/Button';

import { Hint } from './Hint';
import { StarIcon } from './Icons';

/**
 * The favorite toggle of a locus. Disabled while saving or when not signed in; the tooltip texts
 * are the spec's. Saving annotations belongs to the accounts work: without `onToggle` it is inert.
 */
export function LocusFavoriteButton({
  signedIn,
  favorited,
  saving = false,
  onToggle,
  size = 'sm',
  placement = 'top',
}: {
  signedIn: boolean;
  favorited: boolean;
  saving?: boolean;
  onToggle?: () => void;
  size?: 'sm' | 'lg';
  /** Where the tooltip shows: in a table row, beside the button ('left'), where no row hides it. */
  placement?: 'top' | 'left';
}) {
  const tip = !signedIn ? 'Login to save this locus' : saving ? 'Saving...' : favorited ? 'Remove from favorites' : 'Add to favorites';
  const disabled = !signedIn || saving || !onToggle;
  return (
    <Hint text={tip} placement={placement}>
      {/* A span keeps the tooltip working on a disabled button. */}
      <span className="d-inline-block" tabIndex={disabled ? 0 : undefined} aria-label={disabled ? tip : undefined}>
        <Button
          size={size}
          variant={favorited ? 'warning' : 'outline-secondary'}
          disabled={disabled}
          onClick={onToggle}
          aria-label={tip}
          aria-pressed={favorited}
          style={disabled ? { pointerEvents: 'none' } : undefined}
        >
          <StarIcon filled={favorited} />
        </Button>
      </span>
    </Hint>
  );
}
