import type { ResourceObject } from '@antares/contract';
import type { PropertyDefinition } from '@antares/pipeline';

/** An `alert_property` or `locus_property`: one entry of the property catalogue. */
export function propertyResource(type: string, p: PropertyDefinition): ResourceObject {
  return {
    type,
    id: p.id,
    attributes: { name: p.id, type: p.type, origin: p.origin, description: p.description, es_mapping: p.es_mapping },
  };
}
