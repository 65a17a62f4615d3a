import { MESSAGES } from '@antares/contract';
import { type FormEvent, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { register } from '@/features/auth/api/auth';
import { ApiError, firstError } from '@/lib/api-client';
import { useUnsavedChangesPrompt } from '@/lib/use-unsaved-changes-prompt';

import { PASSWORD_HINT, validateEmail, validatePassword, validateRepeat, validateRequired, validateUsername } from './password-rules';

type Field = 'name' | 'username' | 'email' | 'password' | 'repeat';

const FIELDS: { field: Field; label: string; type: string; autoComplete: string }[] = [
  { field: 'name', label: 'Name', type: 'text', autoComplete: 'name' },
  { field: 'username', label: 'Username', type: 'text', autoComplete: 'username' },
  { field: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { field: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
  { field: 'repeat', label: 'Repeat Password', type: 'password', autoComplete: 'new-password' },
];

const EMPTY: Record<Field, string> = { name: '', username: '', email: '', password: '', repeat: '' };

export function validateRegistration(values: Record<Field, string>): Record<Field, string | null> {
  return {
    name: validateRequired(values.name),
    username: validateUsername(values.username),
    email: validateEmail(values.email),
    password: validatePassword(values.password),
    repeat: validateRepeat(values.password, values.repeat),
  };
}

export function Component() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [values, setValues] = useState(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const allowLeaving = useUnsavedChangesPrompt(Object.values(values).some(Boolean) && !submitting);

  const errors = validateRegistration(values);
  const valid = Object.values(errors).every((message) => !message);
  const query = params.toString();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ name: true, username: true, email: true, password: true, repeat: true });
    if (!valid) return;
    setSubmitting(true);
    setError(null);
    try {
      await register({ name: values.name.trim(), username: values.username.trim(), email: values.email.trim(), password: values.password });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 409 ? MESSAGES.usernameTaken : (firstError(failure).detail ?? 'Server error.'),
      );
      setSubmitting(false);
      return;
    }
    allowLeaving();
    // On to login, carrying the same query (the redirect back to where the user started).
    void navigate(`/login${query ? `?${query}` : ''}`, { state: { registered: values.username.trim() } });
  };

  return (
    <Card className="mx-auto auth-card" style={{ maxWidth: 480 }}>
      <Card.Body>
        <h1 className="h4 mb-3">Register</h1>
        {error && (
          <Alert variant="danger" role="alert">
            {error}
          </Alert>
        )}
        <Form noValidate onSubmit={(event) => void submit(event)}>
          {FIELDS.map(({ field, label, type, autoComplete }) => (
            <Form.Group className="mb-3" controlId={`register-${field}`} key={field}>
              <Form.Label>{label}</Form.Label>
              <Form.Control
                type={type}
                autoComplete={autoComplete}
                value={values[field]}
                onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
                onBlur={() => setTouched((t) => ({ ...t, [field]: true }))}
                isInvalid={Boolean(touched[field] && errors[field])}
                aria-describedby={field === 'password' ? 'register-password-hint' : undefined}
                required
              />
              {field === 'password' && (
                <Form.Text id="register-password-hint" className="d-block">
                  {PASSWORD_HINT}
                </Form.Text>
              )}
              <Form.Control.Feedback type="invalid">{errors[field]}</Form.Control.Feedback>
            </Form.Group>
          ))}
          <div className="d-flex flex-wrap gap-2">
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Registering...' : 'Register'}
            </Button>
            <Link to={`/login${query ? `?${query}` : ''}`} className="btn btn-outline-secondary">
              Already have an account? Login
            </Link>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
