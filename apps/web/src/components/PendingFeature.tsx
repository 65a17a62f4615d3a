import Alert from 'react-bootstrap/Alert';

/**
 * Honest placeholder for screens whose server resources are not available yet: the route,
 * guard and title exist; the screen says plainly that it is not ready instead of faking data.
 */
export function PendingFeature({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <section>
      <h1 className="h3 mb-3">{title}</h1>
      <Alert variant="info">
        {children ?? 'This screen is not available yet on this ANTARES server. It will start working when the server provides it.'}
      </Alert>
    </section>
  );
}
