import Alert from 'react-bootstrap/Alert';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

import { firstError, isNotFound } from '@/lib/api-client';

/** Shown when a loader or a page throws (e.g. a locus id that does not exist). */
export function RouteError() {
  const error = useRouteError();
  const notFound = isNotFound(error) || (isRouteErrorResponse(error) && error.status === 404);
  const detail = isRouteErrorResponse(error) ? error.statusText : firstError(error).detail;
  return (
    <section className="py-4">
      <Alert variant={notFound ? 'warning' : 'danger'}>
        <Alert.Heading as="h1" className="h4">
          {notFound ? 'Not Found' : 'Something went wrong'}
        </Alert.Heading>
        <p className="mb-0">{detail}</p>
      </Alert>
      <Link to="/loci">Back to the locus list</Link>
    </section>
  );
}
