import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

import { downloadFinderChart } from '@/features/locus-detail/api/finder-chart';
import { firstError } from '@/lib/api-client';

/** Generates the server-side finder chart PDF; disabled while it is being made. */
export function FinderChartButton({ locusId }: { locusId: string }) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setLoading(true);
    setError(null);
    try {
      await downloadFinderChart(locusId);
    } catch (failure) {
      setError(firstError(failure).detail ?? String(firstError(failure).title));
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <Button size="sm" variant="outline-primary" onClick={() => void run()} disabled={loading}>
        {loading && <Spinner as="span" size="sm" animation="border" className="me-1" aria-hidden="true" />}
        Finder Chart
      </Button>
      {error && (
        <Alert variant="danger" className="mt-2 mb-0 py-1 small" dismissible onClose={() => setError(null)}>
          The finder chart could not be made: {error}
        </Alert>
      )}
    </>
  );
}
