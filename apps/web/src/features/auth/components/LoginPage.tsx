import { MESSAGES } from '@antares/contract';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';

import { loadUser, login } from '@/features/auth/api/auth';
import { ApiError } from '@/lib/api-client';
import { getConfig } from '@/lib/config';
import { useUnsavedChangesPrompt } from '@/lib/use-unsaved-changes-prompt';

import { safeRedirect } from './password-rules';

/** The message for a failed login: the spec's for 401, the server's reason for a refusal like 429. */
function loginFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return 'Incorrect username or password. Please try again.';
  if (error instanceof ApiError && error.status === 429)
    return error.errors[0]?.detail ?? 'Too many failed logins. Please wait and try again.';
  return 'Server error.';
}

export function Component() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ username: false, password: false });
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const registered = (location.state as { registered?: string } | null)?.registered;
  const allowLeaving = useUnsavedChangesPrompt((username !== '' || password !== '') && !submitting);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ username: true, password: true });
    if (!username.trim() || !password) return;
    setSubmitting(true);
    setError(null);
    let identity: string;
    try {
      identity = await login(username.trim(), password);
    } catch (failure) {
      setError(loginFailure(failure));
      setSubmitting(false);
      return;
    }
    try {
      await loadUser(identity);
    } catch {
      setError(`The server encountered an error. Please try again and if the problem persists email us at ${getConfig().supportEmail}.`);
      setSubmitting(false);
      return;
    }
    allowLeaving();
    void navigate(safeRedirect(params.get('redirect')), { replace: true });
  };

  const query = params.toString();
  return (
    <Card className="mx-auto auth-card" style={{ maxWidth: 420 }}>
      <Card.Body>
        <h1 className="h4 mb-3">Login</h1>
        {params.get('reason') === 'inactivity' && (
          <Alert variant="warning" data-testid="inactivity-notice">
            You have been logged out due to inactivity.
          </Alert>
        )}
        {registered && !error && <Alert variant="success">Your account {registered} was created. You can now log in.</Alert>}
        {error && (
          <Alert variant="danger" role="alert">
            {error}
          </Alert>
        )}
        <Form noValidate onSubmit={(event) => void submit(event)}>
          <Form.Group className="mb-3" controlId="login-username">
            <Form.Label>Username</Form.Label>
            <Form.Control
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, username: true }))}
              isInvalid={touched.username && !username.trim()}
              required
            />
            <Form.Control.Feedback type="invalid">{MESSAGES.required}</Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId="login-password">
            <Form.Label>Password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, password: true }))}
              isInvalid={touched.password && !password}
              required
            />
            <Form.Control.Feedback type="invalid">{MESSAGES.required}</Form.Control.Feedback>
          </Form.Group>
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Logging in...' : 'Login'}
            </Button>
            <Link to={`/register${query ? `?${query}` : ''}`} className="btn btn-outline-secondary">
              Need an account?
            </Link>
          </div>
          <Link to="/forgot-password" className="d-inline-block mt-3 small">
            Forgot your Password?
          </Link>
        </Form>
      </Card.Body>
    </Card>
  );
}
