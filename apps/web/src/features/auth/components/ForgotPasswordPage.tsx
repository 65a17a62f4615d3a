import { MESSAGES } from '@antares/contract';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router';

import { requestPasswordReset, resetPassword } from '@/features/auth/api/auth';
import { ApiError, firstError, isExpiredSession } from '@/lib/api-client';

import { PASSWORD_HINT, validatePassword, validateRepeat } from './password-rules';
import { initialResetStep, type ResetStep } from './reset-token';

function errorText(error: unknown): string {
  const first = firstError(error);
  return first.detail ?? first.title ?? 'Unknown error';
}

/**
 * A failed reset shows the server's error. Reset tokens are revoked only by being used, so a 'revoked'
 * answer is worded as what it means for the user.
 */
function resetFailure(error: unknown): string {
  const text = errorText(error);
  return error instanceof ApiError && error.status === 401 && /revoked/i.test(text) ? 'This reset link has already been used' : text;
}

/** Step 1 (REQUEST, and EXPIRED which offers a new link): the username. */
function RequestForm({ onSent, expired }: { onSent: () => void; expired: boolean }) {
  const [username, setUsername] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const invalid = username.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid) return;
    setSubmitting(true);
    setError(null);
    try {
      await requestPasswordReset(username.trim());
      onSent();
    } catch (failure) {
      setError(`There was an issue processing your request: ${errorText(failure)}`);
      setSubmitting(false);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      {expired && (
        <Alert variant="warning" data-testid="reset-expired">
          The link to reset your password has expired. Please try again.
        </Alert>
      )}
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      <p className="text-body-secondary">Enter your username and we will e-mail you a link to choose a new password.</p>
      <Form.Group className="mb-3" controlId="forgot-username">
        <Form.Label>Username</Form.Label>
        <Form.Control
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          onBlur={() => setTouched(true)}
          isInvalid={touched && invalid}
          required
        />
        <Form.Control.Feedback type="invalid">{MESSAGES.required}</Form.Control.Feedback>
      </Form.Group>
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Sending...' : 'Send reset link'}
      </Button>
    </Form>
  );
}

/** Step SUBMIT: the new password (the spec's password rules) and its repetition. */
function NewPasswordForm({ token, onFinished, onExpired }: { token: string; onFinished: () => void; onExpired: () => void }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [touched, setTouched] = useState({ password: false, repeat: false });
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordError = validatePassword(password);
  const repeatError = validateRepeat(password, repeat);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ password: true, repeat: true });
    if (passwordError || repeatError) return;
    setSubmitting(true);
    setError(null);
    try {
      await resetPassword(token, password);
      onFinished();
    } catch (failure) {
      // The server's expiry (clock skew, or the link sat open past its time) means the same as ours.
      if (isExpiredSession(failure)) onExpired();
      else setError(resetFailure(failure));
      setSubmitting(false);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      <Form.Group className="mb-3" controlId="reset-password">
        <Form.Label>New Password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, password: true }))}
          isInvalid={touched.password && Boolean(passwordError)}
          aria-describedby="reset-password-hint"
          required
        />
        <Form.Text id="reset-password-hint" className="d-block">
          {PASSWORD_HINT}
        </Form.Text>
        <Form.Control.Feedback type="invalid">{passwordError}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="reset-repeat">
        <Form.Label>Repeat Password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          onBlur={() => setTouched((t) => ({ ...t, repeat: true }))}
          isInvalid={touched.repeat && Boolean(repeatError)}
          required
        />
        <Form.Control.Feedback type="invalid">{repeatError}</Form.Control.Feedback>
      </Form.Group>
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Saving...' : 'Change password'}
      </Button>
    </Form>
  );
}

/**
 * The forgot-password wizard: REQUEST -> SENT; a link's token -> SUBMIT -> FINISHED, or EXPIRED (which
 * can request a new link -> SENT). A Return to login button is always shown.
 */
export function Component() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [step, setStep] = useState<ResetStep>(() => initialResetStep(token));

  return (
    <Card className="mx-auto auth-card" style={{ maxWidth: 480 }}>
      <Card.Body>
        <h1 className="h4 mb-3">Reset Password</h1>
        <div data-testid="reset-step" data-step={step}>
          {(step === 'REQUEST' || step === 'EXPIRED') && <RequestForm expired={step === 'EXPIRED'} onSent={() => setStep('SENT')} />}
          {step === 'SENT' && (
            <Alert variant="success" role="status">
              If there is an email address associated with the username you entered, we've sent a message to it with instructions for how to
              reset your password.
            </Alert>
          )}
          {step === 'SUBMIT' && token && (
            <NewPasswordForm token={token} onFinished={() => setStep('FINISHED')} onExpired={() => setStep('EXPIRED')} />
          )}
          {step === 'FINISHED' && (
            <Alert variant="success" role="status">
              Your password has been successfully changed.
            </Alert>
          )}
        </div>
        <Link to="/login" className="btn btn-outline-secondary mt-3">
          Return to login
        </Link>
      </Card.Body>
    </Card>
  );
}
