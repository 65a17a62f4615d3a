// Protocol lines as bytes (filter-runtime/PROTOCOL.md): alerts and locus bodies encoded once and shared
// by every worker they go to, and a line assembled from them in one allocation (ADRs 0010, 0011).
import type { AlertForFilter, LocusForFilter } from './types.ts';

/** About this much JSON per line of a batch: the worker runs one chunk while the next is encoded. */
export const CHUNK_BYTES = 48 << 10;

/**
 * An alert as sent in full, its properties packed (base64 of their JSON: the worker skips over them
 * and decodes them only when a filter reads them; most read only the triggering alert's). Made once
 * however many workers it is sent to (Level 2 gives every filter the same loci), so alerts handed to
 * the pool are treated as immutable (but for their GW associations, which are checked): an alert whose
 * properties change is a new object.
 */
const alertJson = new WeakMap<AlertForFilter, { version: string; bytes: Buffer }>();
export function encodedAlert(alert: AlertForFilter, version: string): Buffer {
  return encodedOnce(alertJson, alert, version, () => `"packed":"${packedProperties(alert)}"`);
}

/** An alert sent without its properties, which the worker asks for if its filter reads them (deferred.ts); made once too. */
const deferredJson = new WeakMap<AlertForFilter, { version: string; bytes: Buffer }>();
export function deferredAlert(alert: AlertForFilter, version: string): Buffer {
  return encodedOnce(deferredJson, alert, version, () => '"deferred":true');
}

function encodedOnce(
  made: WeakMap<AlertForFilter, { version: string; bytes: Buffer }>,
  alert: AlertForFilter,
  version: string,
  field: () => string,
): Buffer {
  const known = made.get(alert);
  if (known?.version === version) return known.bytes;
  const bytes = Buffer.from(withField(alert, field()));
  made.set(alert, { version, bytes });
  return bytes;
}

/** The alert's properties as the protocol's `packed`: base64 of their JSON. */
export function packedProperties(alert: AlertForFilter): string {
  return Buffer.from(alert.propertiesJson ?? JSON.stringify(alert.properties ?? {})).toString('base64');
}

/** The alert's JSON without its properties, and one more field. */
function withField(alert: AlertForFilter, field: string): string {
  const { properties: _properties, propertiesJson: _json, ...rest } = alert;
  const head = JSON.stringify(rest);
  return `${head.length > 2 ? `${head.slice(0, -1)},` : '{'}${field}}`;
}

/**
 * A locus without its alerts, as JSON (the end of its line: `],"locus_id":...}`). Level 2 sends every
 * locus to each filter in turn, and its properties (light-curve features) and catalog rows are most of
 * the line: the text is made once and reused while the locus' properties object and tags array stay the
 * same ones. So a locus is changed by giving it new ones, never by editing them in place. Its
 * properties travel packed, as an alert's do (most filters never read them), or not at all when
 * `deferred` (the worker asks for them if its filter reads them: deferred.ts).
 */
const locusJson = new WeakMap<LocusForFilter, { properties: object; tags: string[]; packed?: Buffer; deferred?: Buffer }>();
export function locusBody(locus: LocusForFilter, deferred = false): Buffer {
  let known = locusJson.get(locus);
  if (!known || known.properties !== locus.properties || known.tags !== locus.tags) {
    known = { properties: locus.properties, tags: locus.tags };
    locusJson.set(locus, known);
  }
  if (deferred) return (known.deferred ??= bodyWith(locus, '"deferred":true'));
  return (known.packed ??= bodyWith(locus, `"packed":"${packedLocusProperties(locus)}"`));
}

/** The locus' own properties as the protocol's `packed`: base64 of their JSON. */
export function packedLocusProperties(locus: LocusForFilter): string {
  return Buffer.from(JSON.stringify(locus.properties ?? {})).toString('base64');
}

function bodyWith(locus: LocusForFilter, field: string): Buffer {
  const { alerts: _alerts, properties: _properties, ...rest } = locus;
  const body = JSON.stringify(rest);
  return Buffer.from(`],${field}${body === '{}' ? '}' : `,${body.slice(1)}`}`);
}

/**
 * One protocol line from parts: the big ones (alerts sent in full, locus bodies) are UTF-8 already and
 * shared by every worker they go to, so a line costs one copy of them rather than string building and a
 * UTF-8 conversion per worker. Small text (alert ids, punctuation) is gathered between them.
 */
export class LineBuilder {
  private readonly parts: (string | Buffer)[] = [];
  private text = '';
  /** About the bytes so far (string lengths count UTF-16 units): for sizing chunks only. */
  length = 0;

  add(part: string | Buffer): void {
    if (typeof part === 'string') {
      this.text += part;
    } else {
      if (this.text) this.parts.push(this.text);
      this.text = '';
      this.parts.push(part);
    }
    this.length += part.length;
  }

  /** The line in one buffer, allocated once (no intermediate buffer per piece of text). */
  finish(): Buffer {
    if (this.text) this.parts.push(this.text);
    let size = 0;
    for (const part of this.parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
    const line = Buffer.allocUnsafe(size);
    let at = 0;
    for (const part of this.parts) at += typeof part === 'string' ? line.write(part, at) : part.copy(line, at);
    return line;
  }
}
