import { LIMITS } from '@antares/contract';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

import { validateCode, validateComment, validateFilterClass } from '@/features/filters/components/filter-rules';
import { firstError } from '@/lib/api-client';

/**
 * The comment and the Submit/Cancel buttons of a new version (the code is in the editor above).
 * A failure reads 'Error submitting new version: {detail or title}'.
 */
export function NewVersionForm({
  code,
  filterClass = '',
  canCancel,
  onSubmit,
  onCancel,
}: {
  code: string;
  /** The filter class field's value (shown, with its own error, above the form). */
  filterClass?: string;
  canCancel: boolean;
  onSubmit: (comment: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [comment, setComment] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const commentError = validateComment(comment);
  const codeError = validateCode(code);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (commentError || codeError || validateFilterClass(filterClass) || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      await onSubmit(comment.trim());
    } catch (failure) {
      const detail = firstError(failure);
      setError(`Error submitting new version: ${detail.detail ?? detail.title ?? 'unknown error'}`);
      setSubmitting(false);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} className="mt-2" aria-label="New version">
      {touched && codeError && (
        <p className="text-danger small mb-2" role="alert">
          Code: {codeError}
        </p>
      )}
      {error && (
        <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert" className="text-wrap">
          {error}
        </Alert>
      )}
      <Form.Group className="mb-2" controlId="version-comment">
        <Form.Label>Comment</Form.Label>
        <Form.Control
          type="text"
          value={comment}
          autoComplete="off"
          placeholder="What changed in this version"
          onChange={(e) => setComment(e.target.value)}
          onBlur={() => setTouched(true)}
          isInvalid={touched && commentError !== null}
          aria-describedby="version-comment-count"
          required
        />
        <Form.Control.Feedback type="invalid">{commentError}</Form.Control.Feedback>
        <Form.Text id="version-comment-count" className="d-block text-end">
          {comment.length} / {LIMITS.commentMax}
        </Form.Text>
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Submitting...' : 'Submit Version'}
        </Button>
        {canCancel && (
          <Button variant="outline-secondary" onClick={onCancel} disabled={submitting}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
