import Button from 'react-bootstrap/Button';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';

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
}: {
  signedIn: boolean;
  favorited: boolean;
  saving?: boolean;
  onToggle?: () => void;
  size?: 'sm' | 'lg';
}) {
  const tip = !signedIn ? 'Login to save this locus' : saving ? 'Saving...' : favorited ? 'Remove from favorites' : 'Add to favorites';
  const disabled = !signedIn || saving || !onToggle;
  return (
    <OverlayTrigger placement="top" overlay={<Tooltip>{tip}</Tooltip>}>
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
    </OverlayTrigger>
  );
}
