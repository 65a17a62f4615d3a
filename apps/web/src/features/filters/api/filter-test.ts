import { FILTER_TEST_DEFAULT_LOCI, FILTER_TEST_MAX_LOCI, type FilterTestReport } from '@antares/contract';

import { apiFetch, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export { FILTER_TEST_DEFAULT_LOCI, FILTER_TEST_MAX_LOCI };
export type { FilterTestReport };

/** Which loci a dry run takes: the most recent N, or the given ids. */
export type TestLoci = { lastN: number } | { locusIds: string[] };

/** Locus ids typed by the user: separated by commas, spaces or new lines; duplicates dropped, order kept. */
export function parseLocusIds(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
}

/** Why the chosen loci cannot be sent, or null. */
export function testLociProblem(loci: TestLoci): string | null {
  if ('locusIds' in loci) {
    if (loci.locusIds.length === 0) return 'Enter at least one locus id.';
    if (loci.locusIds.length > FILTER_TEST_MAX_LOCI) return `At most ${FILTER_TEST_MAX_LOCI} loci can be tested at once.`;
    return null;
  }
  if (!Number.isInteger(loci.lastN) || loci.lastN < 1 || loci.lastN > FILTER_TEST_MAX_LOCI) {
    return `Choose between 1 and ${FILTER_TEST_MAX_LOCI} loci.`;
  }
  return null;
}

/** POST /filters/test: runs the code (its filter `filterClass`, else the last it defines) in the sandbox on
 * the chosen loci without storing anything. */
export async function runFilterTest(code: string, loci: TestLoci, signal?: AbortSignal, filterClass = ''): Promise<FilterTestReport> {
  const chosen = filterClass.trim() === '' ? {} : { filter_class: filterClass.trim() };
  const attributes = { ...('locusIds' in loci ? { code, locus_ids: loci.locusIds } : { code, last_n: loci.lastN }), ...chosen };
  const response = await apiFetch('/filters/test', { method: 'POST', body: { data: { type: 'filter_test', attributes } }, signal });
  const document = (await response.json()) as JsonApiDocument<JsonApiResource<FilterTestReport>>;
  return document.data.attributes;
}
