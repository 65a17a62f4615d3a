import Alert from 'react-bootstrap/Alert';

import { firstError } from '@/lib/api-client';

/**
 * The error panel most screens use: a heading, a sentence, and the first error object as
 * formatted JSON (the spec prints it that way so users can paste it into a support request).
 */
export function ErrorState({
  title,
  message,
  error,
  asJson = true,
}: {
  title: string;
  message?: string;
  error?: unknown;
  asJson?: boolean;
}) {
  const detail = error === undefined ? undefined : firstError(error);
  return (
    <Alert variant="danger" role="alert">
      <Alert.Heading as="h2" className="h5">
        {title}
      </Alert.Heading>
      {message && <p className="mb-1">{message}</p>}
      {detail &&
        (asJson ? (
          <pre className="mb-0 small text-wrap">{JSON.stringify(detail, null, 2)}</pre>
        ) : (
          <p className="mb-0">{detail.detail ?? detail.title}</p>
        ))}
    </Alert>
  );
}
