import { ANNOUNCEMENT_VARIANTS, type AnnouncementVariant, LIMITS, MESSAGES } from '@antares/contract';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';

import { createAnnouncement } from '@/features/admin/api/announcements';
import { firstError } from '@/lib/api-client';

/** The message rule of the spec: required, at most 2048 characters. */
export function validateAnnouncementMessage(message: string): string | null {
  if (message.trim() === '') return MESSAGES.required;
  if (message.length > LIMITS.announcementMessageMax) return MESSAGES.maxLength(LIMITS.announcementMessageMax);
  return null;
}

/**
 * New Announcement: Message (3 rows), Display Type (the eight variants, default info), Make Active
 * Immediately (default off). Submit is disabled while invalid or submitting; success goes to the list.
 */
export function Component() {
  const navigate = useNavigate();
  const [message, setMessage] = useState('');
  const [variant, setVariant] = useState<AnnouncementVariant>('info');
  const [active, setActive] = useState(false);
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const messageError = validateAnnouncementMessage(message);
  const invalid = messageError !== null || !ANNOUNCEMENT_VARIANTS.includes(variant);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      await createAnnouncement({ message: message.trim(), variant, active });
      void navigate('/admin/announcements');
    } catch (failure) {
      const detail = firstError(failure);
      setError(`There was an error creating your announcement: ${detail.detail ?? detail.title ?? 'unknown error'}.`);
      setSubmitting(false);
    }
  };

  return (
    <section className="mx-auto" style={{ maxWidth: 720 }}>
      <h1 className="h3 mb-3">New Announcement</h1>
      <Card>
        <Card.Body>
          {error && (
            <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert">
              {error}
            </Alert>
          )}
          <Form noValidate onSubmit={(event) => void submit(event)}>
            <Form.Group className="mb-3" controlId="announcement-message">
              <Form.Label>Message</Form.Label>
              <Form.Control
                as="textarea"
                rows={3}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                onBlur={() => setTouched(true)}
                isInvalid={touched && messageError !== null}
                aria-describedby="announcement-message-count"
                required
              />
              <Form.Control.Feedback type="invalid">{messageError}</Form.Control.Feedback>
              <Form.Text id="announcement-message-count" className="d-block text-end">
                {message.length} / {LIMITS.announcementMessageMax}
              </Form.Text>
            </Form.Group>
            <Form.Group className="mb-3" controlId="announcement-variant">
              <Form.Label>Display Type</Form.Label>
              <Form.Select value={variant} onChange={(e) => setVariant(e.target.value as AnnouncementVariant)} required>
                {ANNOUNCEMENT_VARIANTS.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <p className="small text-body-secondary mb-1">Preview</p>
            <Alert variant={variant} className="py-2 small text-center" data-testid="announcement-preview">
              {message.trim() || 'The banner will look like this.'}
            </Alert>
            <Form.Check
              className="mb-3"
              type="switch"
              id="announcement-active"
              label="Make Active Immediately"
              checked={active}
              onChange={(e) => setActive(e.target.checked)}
            />
            <div className="d-flex gap-2">
              <Link to="/admin/announcements" className="btn btn-outline-secondary">
                Cancel
              </Link>
              <Button type="submit" disabled={invalid || submitting}>
                {submitting ? 'Submitting...' : 'Submit'}
              </Button>
            </div>
          </Form>
        </Card.Body>
      </Card>
    </section>
  );
}
