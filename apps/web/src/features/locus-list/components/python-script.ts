import { elasticsearchQuery, type SearchFilter } from '../../../lib/locus-query';

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

/**
 * antares_search.py: runs the list's current query through the antares-client package against
 * this server. The client reads ANTARES_API_BASE_URL when imported, so it is set first.
 */
export function buildPythonScript(filters: SearchFilter[], apiURL: string): string {
  const query = elasticsearchQuery(filters) ?? { query: { bool: { filter: [] } } };
  const base = apiURL.endsWith('/') ? apiURL : `${apiURL}/`;
  return `# ${SCRIPT_FILE_NAME}: the locus search currently shown in the ANTARES web app.
# Requires the ANTARES client, version 1.0 or higher:
#     ${PIP_INSTALL}
import os

# Point the client at this ANTARES server (read when antares_client is imported).
os.environ.setdefault("ANTARES_API_BASE_URL", ${JSON.stringify(base)})

from antares_client.search import search  # noqa: E402

query = ${toPythonLiteral(query)}

# Results come newest first (sorted by properties.newest_alert_observation_time).
for locus in search(query):
    print(locus.locus_id, locus.ra, locus.dec, locus.properties.get("ztf_object_id"))
`;
}
