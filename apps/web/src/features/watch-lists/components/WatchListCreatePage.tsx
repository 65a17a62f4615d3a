import { LIMITS, MESSAGES } from '@antares/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate } from 'react-router';

import { createWatchList, WATCH_LISTS_KEY } from '@/features/watch-lists/api/watch-lists';
import { firstError } from '@/lib/api-client';
import { getConfig } from '@/lib/config';
import { useSession } from '@/lib/use-session';

import { type ObjectsFile, ObjectsFileField } from './ObjectsFileField';
import {
  creationFailedMessage,
  validateRequired,
  validateSlackChannel,
  WATCH_LIST_DESCRIPTION_MAX,
  WATCH_LIST_NAME_MAX,
} from './watch-list-rules';

type Field = 'name' | 'description' | 'slack_channel';

/**
 * New Watch List: name, description, an optional Slack channel and the objects file (checked in the
 * browser). Submit stays disabled while anything is invalid or while submitting; success goes to the
 * watch list list, a failure shows the spec's message and keeps the form.
 */
export function Component() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const { user } = useSession();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', description: '', slack_channel: '' });
  const [touched, setTouched] = useState<Partial<Record<Field | 'file', boolean>>>({});
  const [file, setFile] = useState<ObjectsFile>({ status: 'none' });
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errors: Record<Field, string | null> = {
    name: validateRequired(values.name, WATCH_LIST_NAME_MAX),
    description: validateRequired(values.description, WATCH_LIST_DESCRIPTION_MAX),
    slack_channel: validateSlackChannel(values.slack_channel),
  };
  const valid = !errors.name && !errors.description && !errors.slack_channel && file.status === 'valid';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, description: true, slack_channel: true, file: true });
    if (!valid || submitting || !user || file.status !== 'valid') return;
    setSubmitting(true);
    setError(null);
    try {
      await createWatchList(user.id, {
        name: values.name.trim(),
        description: values.description.trim(),
        slack_channel: values.slack_channel.trim() || undefined,
        objects: file.objects,
      });
      await client.invalidateQueries({ queryKey: WATCH_LISTS_KEY });
      void navigate('/watch-lists');
    } catch (failure) {
      const detail = firstError(failure);
      setError(creationFailedMessage(detail.detail || detail.title || 'unknown error', getConfig().supportEmail));
      setSubmitting(false);
    }
  };

  const field = (name: Field) => ({
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    onBlur: () => setTouched((t) => ({ ...t, [name]: true })),
    // 'Field is required.' waits for the field to be left; a too-long value shows at once.
    isInvalid: Boolean(errors[name] && (touched[name] || errors[name] !== MESSAGES.required)),
    disabled: submitting,
  });

  return (
    <section className="mx-auto" style={{ maxWidth: 760 }}>
      <h1 className="h3 mb-3">New Watch List</h1>
      <Card>
        <Card.Body>
          {error && (
            <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert" data-testid="watch-list-create-error">
              {error}
            </Alert>
          )}
          <Form noValidate onSubmit={(event) => void submit(event)}>
            <Form.Group className="mb-3" controlId="watch-list-name">
              <Form.Label>Name</Form.Label>
              <Form.Control type="text" autoComplete="off" required {...field('name')} />
              <Form.Control.Feedback type="invalid">{errors.name}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group className="mb-3" controlId="watch-list-description">
              <Form.Label>Description</Form.Label>
              <Form.Control as="textarea" rows={3} required {...field('description')} />
              <Form.Control.Feedback type="invalid">{errors.description}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group className="mb-3" controlId="watch-list-slack-channel">
              <Form.Label>Slack Channel (optional)</Form.Label>
              <Form.Control
                type="text"
                autoComplete="off"
                placeholder="#my-channel"
                aria-describedby="watch-list-slack-help"
                {...field('slack_channel')}
              />
              <Form.Control.Feedback type="invalid">{errors.slack_channel}</Form.Control.Feedback>
              <Form.Text id="watch-list-slack-help" className="d-block">
                A Slack username or channel to notify, such as #my-channel (at most {LIMITS.slackChannelMax} characters). Notifications will
                not begin until processing of the survey's whole alert history finishes.
              </Form.Text>
            </Form.Group>
            <ObjectsFileField
              value={file}
              onChange={setFile}
              touched={Boolean(touched.file)}
              onTouched={() => setTouched((t) => ({ ...t, file: true }))}
              disabled={submitting}
            />
            <div className="d-flex gap-2">
              <Link to="/watch-lists" className="btn btn-outline-secondary">
                Cancel
              </Link>
              <Button type="submit" disabled={!valid || submitting}>
                {submitting ? 'Submitting...' : 'Submit'}
              </Button>
            </div>
          </Form>
        </Card.Body>
      </Card>
    </section>
  );
}
