import { alertPropertyCatalog, locusPropertyCatalog, type PropertyDefinition } from '@antares/pipeline';

import { badRequest, notFound } from '../errors.ts';

const SORTABLE = new Set(['id', 'type', 'origin', 'description', 'es_mapping']);

export type PropertyKind = 'alert_property' | 'locus_property';

/** The property catalogue (`/v1/alert_properties`, `/v1/loci_properties`): what each alert and locus property means. */
export class PropertyService {
  private catalog(kind: PropertyKind): PropertyDefinition[] {
    return kind === 'alert_property' ? alertPropertyCatalog() : locusPropertyCatalog();
  }

  /** One page, sorted by a field of SORTABLE (a leading "-" for descending), then by id. */
  list(
    kind: PropertyKind,
    sort: string | undefined,
    page: { limit: number; offset: number },
  ): { rows: PropertyDefinition[]; count: number } {
    const sorted = sortProperties(this.catalog(kind), sort || '-id');
    return { rows: sorted.slice(page.offset, page.offset + page.limit), count: sorted.length };
  }

  get(kind: PropertyKind, name: string): PropertyDefinition {
    const property = this.catalog(kind).find((p) => p.id === name);
    if (!property) throw notFound(`No ${kind.replace('_', ' ')} named "${name}"`);
    return property;
  }
}

function sortProperties(properties: PropertyDefinition[], sort: string): PropertyDefinition[] {
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  if (!SORTABLE.has(field)) throw badRequest(`Unknown sort field "${field}" (use one of ${[...SORTABLE].join(', ')})`);
  const key = field as keyof PropertyDefinition;
  const sign = descending ? -1 : 1;
  return [...properties].sort((a, b) => sign * String(a[key]).localeCompare(String(b[key])) || a.id.localeCompare(b.id));
}
