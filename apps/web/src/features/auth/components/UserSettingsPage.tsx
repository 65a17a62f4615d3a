import { MESSAGES } from '@antares/contract';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';

import { changePassword, loginFresh } from '@/features/auth/api/auth';
import { ApiError } from '@/lib/api-client';
import { getConfig } from '@/lib/config';
import { useSession } from '@/lib/use-session';

import { PASSWORD_HINT, validatePassword, validateRepeat } from './password-rules';

type Field = 'current' | 'password' | 'repeat';
const EMPTY: Record<Field, string> = { current: '', password: '', repeat: '' };

/**
 * Account Settings: change the password. The current password is verified by a fresh login (the
 * server requires a fresh session to set a password), then the new one is set; the form is cleared.
 */
export function Component() {
  const { user } = useSession();
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<{ variant: 'success' | 'danger'; text: string } | null>(null);

  const errors: Record<Field, string | null> = {
    current: values.current === '' ? MESSAGES.required : null,
    password: validatePassword(values.password),
    repeat: validateRepeat(values.password, values.repeat),
  };
  const valid = Object.values(errors).every((e) => !e);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ current: true, password: true, repeat: true });
    if (!valid || !user) return;
    setSubmitting(true);
    setResult(null);
    const problem = `There was a problem changing your password. Please try again. If the problem persists, email ${getConfig().supportEmail}.`;
    try {
      await loginFresh(user.username, values.current);
    } catch (failure) {
      const incorrect = failure instanceof ApiError && (failure.status === 401 || failure.status === 400);
      setResult({ variant: 'danger', text: incorrect ? 'You entered an incorrect password. Please try again.' : problem });
      setSubmitting(false);
      return;
    }
    try {
      await changePassword(values.password);
      setValues(EMPTY);
      setTouched({});
      setResult({ variant: 'success', text: 'Successfully changed password.' });
    } catch {
      setResult({ variant: 'danger', text: problem });
    } finally {
      setSubmitting(false);
    }
  };

  const field = (name: Field, label: string, autoComplete: string, hint?: string) => (
    <Form.Group className="mb-3" controlId={`settings-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="password"
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
        onBlur={() => setTouched((t) => ({ ...t, [name]: true }))}
        isInvalid={Boolean(touched[name] && errors[name])}
        aria-describedby={hint ? `settings-${name}-hint` : undefined}
        required
      />
      {hint && (
        <Form.Text id={`settings-${name}-hint`} className="d-block">
          {hint}
        </Form.Text>
      )}
      <Form.Control.Feedback type="invalid">{errors[name]}</Form.Control.Feedback>
    </Form.Group>
  );

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <h1 className="h3 mb-3">Account Settings</h1>
      {user && (
        <dl className="row small mb-4" data-testid="account-details">
          <dt className="col-4 text-body-secondary fw-normal">Username</dt>
          <dd className="col-8">{user.username}</dd>
          {user.name && (
            <>
              <dt className="col-4 text-body-secondary fw-normal">Name</dt>
              <dd className="col-8">{user.name}</dd>
            </>
          )}
          {user.email && (
            <>
              <dt className="col-4 text-body-secondary fw-normal">Email</dt>
              <dd className="col-8">{user.email}</dd>
            </>
          )}
        </dl>
      )}
      <Card>
        <Card.Body>
          <h2 className="h5 mb-3">Change Password</h2>
          {result && (
            <Alert
              variant={result.variant}
              role={result.variant === 'danger' ? 'alert' : 'status'}
              dismissible
              onClose={() => setResult(null)}
            >
              {result.text}
            </Alert>
          )}
          <Form noValidate onSubmit={(event) => void submit(event)}>
            {/* A hidden username helps password managers file the new password under the right account. */}
            <input type="text" name="username" autoComplete="username" value={user?.username ?? ''} readOnly hidden />
            {field('current', 'Current Password', 'current-password')}
            {field('password', 'New Password', 'new-password', PASSWORD_HINT)}
            {field('repeat', 'Repeat New Password', 'new-password')}
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Changing password...' : 'Change Password'}
            </Button>
          </Form>
        </Card.Body>
      </Card>
    </section>
  );
}
