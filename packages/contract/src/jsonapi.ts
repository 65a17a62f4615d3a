/** The JSON:API document shapes the server writes and the web app reads (wire format section 1). */
export interface ResourceObject<Attributes = Record<string, unknown>> {
  type: string;
  id: string;
  attributes: Attributes;
  relationships?: Record<string, { links?: { related?: string }; data?: unknown }>;
  links?: { self?: string } & Record<string, string>;
  meta?: Record<string, unknown>;
}

export interface ListDocument<Attributes = Record<string, unknown>> {
  data: ResourceObject<Attributes>[];
  links: { self: string; next?: string };
  meta: { count: number } & Record<string, unknown>;
}

export interface SingleDocument<Attributes = Record<string, unknown>> {
  data: ResourceObject<Attributes>;
  links?: { self: string };
  meta?: Record<string, unknown>;
}
