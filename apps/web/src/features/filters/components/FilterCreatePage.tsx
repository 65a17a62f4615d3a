import { LIMITS } from '@antares/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';

import { createFilter, FILTERS_KEY } from '@/features/filters/api/filters';
import { ApiError } from '@/lib/api-client';
import { useSession } from '@/lib/use-session';
import { UNSAVED_CHANGES_MESSAGE, useUnsavedChangesPrompt } from '@/lib/use-unsaved-changes-prompt';

import { FILTER_CREATE_FAILED, FILTER_NAME_TAKEN, validateFilterDescription, validateFilterName } from './filter-rules';

type Field = 'name' | 'description';

/**
 * New Filter Submission: Filter Name and Filter Description, Cancel (back to the list) and Continue
 * (on to the new filter's page). Leaving with unsaved edits asks first.
 */
export function Component() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { user } = useSession();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', description: '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dirty = Boolean(values.name || values.description) && !submitting;
  const allowLeaving = useUnsavedChangesPrompt(dirty);
  const errors: Record<Field, string | null> = {
    name: validateFilterName(values.name),
    description: validateFilterDescription(values.description),
  };
  const valid = !errors.name && !errors.description;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, description: true });
    if (!valid || submitting || !user) return;
    setSubmitting(true);
    setError(null);
    try {
      const filter = await createFilter(user.id, { name: values.name.trim(), description: values.description.trim() });
      void client.invalidateQueries({ queryKey: FILTERS_KEY });
      allowLeaving();
      void navigate(`/filters/${filter.id}`);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 409 ? FILTER_NAME_TAKEN : FILTER_CREATE_FAILED);
      setSubmitting(false);
    }
  };

  // Cancel asks the same question as any other way out, itself rather than through the router's
  // blocker, so that it asks whatever state a navigation is in; declining stays on the form.
  const cancel = (event: React.MouseEvent) => {
    if (!dirty) return;
    event.preventDefault();
    if (!window.confirm(UNSAVED_CHANGES_MESSAGE)) return;
    allowLeaving();
    void navigate('/filters');
  };

  const field = (name: Field) => ({
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    isInvalid: Boolean(touched[name] && errors[name]),
    required: true,
  });

  return (
    <section className="mx-auto" style={{ maxWidth: 720 }}>
      <h1 className="h3 mb-3">New Filter Submission</h1>
      <p>
        A filter can import the Python packages listed on the{' '}
        <Link to="/filters/environment" target="_blank" rel="noopener">
          Filter Environment
        </Link>{' '}
        page (opens in a new tab), with the versions installed on this server.
      </p>
      <Card>
        <Card.Body>
          {error && (
            <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert">
              {error}
            </Alert>
          )}
          <Form noValidate onSubmit={(event) => void submit(event)}>
            <Form.Group className="mb-3" controlId="filter-name">
              <Form.Label>Filter Name</Form.Label>
              <Form.Control type="text" autoComplete="off" aria-describedby="filter-name-help" {...field('name')} />
              <Form.Control.Feedback type="invalid">{errors.name}</Form.Control.Feedback>
              <Form.Text id="filter-name-help" className="d-block">
                Start with a letter; use letters, digits, spaces, underscores, hyphens and periods (at most {LIMITS.filterNameMax}{' '}
                characters).
              </Form.Text>
            </Form.Group>
            <Form.Group className="mb-3" controlId="filter-description">
              <Form.Label>Filter Description</Form.Label>
              <Form.Control as="textarea" rows={4} aria-describedby="filter-description-count" {...field('description')} />
              <Form.Control.Feedback type="invalid">{errors.description}</Form.Control.Feedback>
              <Form.Text id="filter-description-count" className="d-block text-end">
                {values.description.length} / {LIMITS.filterDescriptionMax}
              </Form.Text>
            </Form.Group>
            <div className="d-flex gap-2">
              <Link to="/filters" className="btn btn-outline-secondary" onClick={cancel}>
                Cancel
              </Link>
              <Button type="submit" disabled={submitting}>
                {submitting ? 'Submitting...' : 'Continue'}
              </Button>
            </div>
          </Form>
        </Card.Body>
      </Card>
    </section>
  );
}
