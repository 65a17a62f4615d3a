import { apiFetch } from '@/lib/api-client';
import { saveBlob } from '@/lib/download';

/** POST /loci/{id}/finder-charts (no body) returns a PDF, saved as antares-locus-{id}.pdf. */
export async function downloadFinderChart(locusId: string): Promise<void> {
  const response = await apiFetch(`/loci/${encodeURIComponent(locusId)}/finder-charts`, { method: 'POST', accept: 'application/pdf' });
  const blob = await response.blob();
  saveBlob(blob.type ? blob : new Blob([blob], { type: 'application/pdf' }), `antares-locus-${locusId}.pdf`);
}
