import { LIMITS, MESSAGES } from '@antares/contract';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

import { useLocusAnnotation } from '@/lib/annotations';
import { firstError } from '@/lib/api-client';

import { Hint } from './Hint';
import { LocusFavoriteButton } from './LocusFavoriteButton';

export const COMMENT_PLACEHOLDER = 'Enter a comment for this locus';

/** The favorite toggle wired to the signed-in user's annotation of the locus. */
export function LocusFavoriteToggle({
  locusId,
  size = 'sm',
  placement,
}: {
  locusId: string;
  size?: 'sm' | 'lg';
  placement?: 'top' | 'left';
}) {
  const { signedIn, favorited, saving, save } = useLocusAnnotation(locusId);
  const toggle = () => {
    save({ favorited: !favorited }).catch((error: unknown) => console.error('Unable to save the favorite', error));
  };
  return (
    <LocusFavoriteButton signedIn={signedIn} favorited={favorited} saving={saving} onToggle={toggle} size={size} placement={placement} />
  );
}

/**
 * The inline comment of a locus. Typing starts editing; Enter or Save submits, Escape or Cancel
 * reverts. The editing and submitting flags are both cleared afterwards, even when saving fails.
 */
export function LocusCommentLine({ locusId }: { locusId: string }) {
  const { signedIn, comment, save } = useLocusAnnotation(locusId);
  const [draft, setDraft] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const editing = draft !== null;
  const value = draft ?? comment;
  const invalid = value.length > LIMITS.commentMax ? MESSAGES.maxLength(LIMITS.commentMax) : null;
  const inputId = `comment-${locusId}`;

  if (!signedIn) {
    return (
      <Hint text="Login to annotate this locus" placement="bottom-start" block>
        {/* The wrapper receives the hover: a disabled input fires no mouse events. */}
        <div data-testid="comment-line">
          <Form.Control
            size="sm"
            placeholder={COMMENT_PLACEHOLDER}
            aria-label="Comment for this locus (login to annotate this locus)"
            disabled
          />
        </div>
      </Hint>
    );
  }

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (draft === null || invalid || submitting) return;
    if (draft === comment) {
      setDraft(null);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      await save({ comment: draft });
    } catch (failure) {
      const detail = firstError(failure);
      setError(`Your comment could not be saved: ${detail.detail ?? detail.title ?? 'unknown error'}`);
    } finally {
      setSubmitting(false);
      setDraft(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      setDraft(null);
      setError(null);
    }
  };

  return (
    <Form onSubmit={(event) => void submit(event)} data-testid="comment-line" noValidate>
      <div className="d-flex gap-2 align-items-start">
        <div className="flex-grow-1">
          <Form.Control
            id={inputId}
            size="sm"
            placeholder={COMMENT_PLACEHOLDER}
            aria-label="Comment for this locus"
            value={value}
            disabled={submitting}
            isInvalid={Boolean(invalid)}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <Form.Control.Feedback type="invalid">{invalid}</Form.Control.Feedback>
        </div>
        {(editing || submitting) && (
          <>
            <Button type="submit" size="sm" disabled={Boolean(invalid) || submitting}>
              {submitting ? 'Saving...' : 'Save'}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline-secondary"
              disabled={submitting}
              onClick={() => {
                setDraft(null);
                setError(null);
              }}
            >
              Cancel
            </Button>
          </>
        )}
      </div>
      {error && (
        <div className="small text-danger mt-1" role="alert">
          {error}
        </div>
      )}
    </Form>
  );
}
