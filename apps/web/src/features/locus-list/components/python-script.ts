import { DEFAULT_SORT, elasticsearchQuery, LOCUS_SORT_FIELDS, type LocusListQuery } from '@/lib/locus-query';

/** A JSON value as a Python literal (True/False/None), indented like `json.dumps(..., indent=4)`. */
export function toPythonLiteral(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent + 4);
  const end = ' '.repeat(indent);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => pad + toPythonLiteral(item, indent + 4)).join(',\n')},\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${pad}${JSON.stringify(key)}: ${toPythonLiteral(item, indent + 4)}`).join(',\n')},\n${end}}`;
}

export const SCRIPT_FILE_NAME = 'antares_search.py';
export const PIP_INSTALL = 'pip install "antares-client>=1.0"';

/** The part of the list's state a script reproduces: its filters and its sort. */
export type ScriptQuery = Pick<LocusListQuery, 'filters' | 'sortBy' | 'sortDesc'>;

/** 'RA (ra), ascending': the sort by the list's column name and the API's field. */
export function describeSort(query: Pick<LocusListQuery, 'sortBy' | 'sortDesc'>): string {
  const field = query.sortBy || DEFAULT_SORT;
  return `${LOCUS_SORT_FIELDS[field] ?? field} (${field}), ${query.sortDesc ? 'descending' : 'ascending'}`;
}

/** A Python expression reading the sort field of a client `Locus` named `locus`. */
function pythonSortValue(field: string): string {
  if (field === 'ra' || field === 'dec') return `locus.${field}`;
  return `locus.properties.get(${JSON.stringify(field.replace(/^properties\./, ''))})`;
}

/**
 * The loop over the results. The client's search() always returns loci newest first (by
 * properties.newest_alert_observation_time, descending): that is the list's default order, printed as
 * it comes. Any other sort is applied here the way the server orders the list (loci without a value
 * last, ties by locus ID descending), so the script prints the loci in the order the list shows them.
 */
function resultLoop(query: ScriptQuery): string {
  const print = '    print(locus.locus_id, locus.ra, locus.dec, locus.properties.get("ztf_object_id"))';
  const field = query.sortBy || DEFAULT_SORT;
  if (field === DEFAULT_SORT && query.sortDesc) {
    return `# Sorted by ${describeSort(query)}, as the list in the web app:
# the order in which the client returns results.
for locus in search(query):
${print}
`;
  }
  // Two blank lines before the function, as PEP 8 asks.
  return `
# Sorted by ${describeSort(query)}, as the list in the web app.
# The client returns results newest first; they are sorted here as the server sorts the list:
# loci without a value last, ties by locus ID (descending).
def sort_value(locus):
    return ${pythonSortValue(field)}


loci = sorted(search(query), key=lambda locus: locus.locus_id, reverse=True)
with_value = sorted((locus for locus in loci if sort_value(locus) is not None), key=sort_value, reverse=${query.sortDesc ? 'True' : 'False'})
without_value = [locus for locus in loci if sort_value(locus) is None]
for locus in with_value + without_value:
${print}
`;
}

/**
 * antares_search.py: runs the list's current query through the antares-client package against
 * this server, in the list's current order. The client reads ANTARES_API_BASE_URL when imported, so
 * it is set first.
 */
export function buildPythonScript(listQuery: ScriptQuery, apiURL: string): string {
  const query = elasticsearchQuery(listQuery.filters) ?? { query: { bool: { filter: [] } } };
  const base = apiURL.endsWith('/') ? apiURL : `${apiURL}/`;
  return `# ${SCRIPT_FILE_NAME}: the locus search currently shown in the ANTARES web app.
# Requires the ANTARES client, version 1.0 or higher:
#     ${PIP_INSTALL}
import os

# Point the client at this ANTARES server (read when antares_client is imported).
os.environ.setdefault("ANTARES_API_BASE_URL", ${JSON.stringify(base)})

from antares_client.search import search  # noqa: E402

query = ${toPythonLiteral(query)}

${resultLoop(listQuery)}`;
}
