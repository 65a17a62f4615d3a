import { angularSeparationDeg, formatDecimal, formatSexagesimal, htmCircleCover, icrsToGalactic } from '@antares/astro';
import { compileLocusSearch, CutoutPackUnavailable, type LocusRow, type Repositories } from '@antares/db';
import { renderCutoutPng } from '@antares/pipeline';
import PDFDocument from 'pdfkit';

import { notFound } from '../errors.ts';

// Pixel scales of the survey cameras: ZTF 1.01"/px, Rubin (LSSTCam) 0.2"/px. The cutout's field
// is its width in pixels times the scale of the survey that took it (told by its alert id).
const ZTF_ARCSEC_PER_PIXEL = 1.01;
const RUBIN_ARCSEC_PER_PIXEL = 0.2;
const CONTEXT_FIELD_ARCSEC = 240; // the wider panel: 4 arcminutes across
// Catalog objects are indexed by the level-10 HTM trixels their match circle touches.
const CATALOG_COVER_LEVEL = 10;
// An object whose match radius is above a point source's 1" is drawn as its extent.
const POINT_SOURCE_RADIUS_ARCSEC = 1.5;

interface FieldObject {
  name: string;
  catalog: string;
  ra: number;
  dec: number;
  radiusArcsec: number;
}

interface Panel {
  x: number;
  y: number;
  size: number;
  fieldArcsec: number;
}

/**
 * A printable finder chart of a locus: its newest science cutout with the locus marked, a wider field
 * with the nearby loci, scale bars, north/east arrows, coordinates and the date. North up, east left.
 */
export class FinderChartService {
  constructor(private readonly repos: Repositories) {}

  async render(locusId: string): Promise<Buffer> {
    const locus = await this.repos.loci.findById(locusId);
    if (!locus) throw notFound(`No locus with id "${locusId}"`);
    const cutout = locus.newest_thumbnail_alert_id
      ? await this.repos.thumbnails.findCutout(locus.newest_thumbnail_alert_id, 'science').catch(withoutUnavailableCutout)
      : undefined;
    const search = compileLocusSearch({
      query: {
        sky_distance: {
          distance: `${((CONTEXT_FIELD_ARCSEC / 2) * Math.SQRT2) / 3600} degree`,
          htm16: { center: `${locus.ra} ${locus.dec}` },
        },
      },
    });
    const nearby = (await this.repos.loci.search({ search, sort: [], limit: 200, offset: 0 })).rows.filter(
      (l) => l.locus_id !== locus.locus_id,
    );
    const stars = await this.catalogObjects(locus.ra, locus.dec, (CONTEXT_FIELD_ARCSEC / 2) * Math.SQRT2);
    const pixelScale = locus.newest_thumbnail_alert_id?.startsWith('lsst') ? RUBIN_ARCSEC_PER_PIXEL : ZTF_ARCSEC_PER_PIXEL;
    return drawChart(locus, cutout, pixelScale, nearby, stars);
  }

  /** The catalog objects (stars, galaxies...) whose position lies within `radiusArcsec` of a point. */
  private async catalogObjects(ra: number, dec: number, radiusArcsec: number): Promise<FieldObject[]> {
    const trixels = htmCircleCover(ra, dec, radiusArcsec / 3600, { level: CATALOG_COVER_LEVEL }).flatMap(([lo, hi]) =>
      Array.from({ length: hi - lo + 1 }, (_, i) => lo + i),
    );
    const seen = new Set<number>();
    const objects: FieldObject[] = [];
    for (const c of await this.repos.catalogs.candidates(trixels)) {
      if (seen.has(c.object_id) || angularSeparationDeg(ra, dec, c.ra, c.dec) * 3600 > radiusArcsec) continue;
      seen.add(c.object_id);
      objects.push({ name: c.object_name ?? c.object_key, catalog: c.catalog_name, ra: c.ra, dec: c.dec, radiusArcsec: c.radius * 3600 });
    }
    return objects;
  }
}

/** The survey's own id of the locus: its ZTF object id, else its Rubin diaObjectId (kept as text). */
function surveyObjectId(locus: LocusRow): string | undefined {
  const properties = locus.properties as { ztf_object_id?: unknown; survey?: { lsst?: { dia_object_id?: unknown } } };
  if (typeof properties.ztf_object_id === 'string') return properties.ztf_object_id;
  const rubin = properties.survey?.lsst?.dia_object_id;
  return Array.isArray(rubin) && typeof rubin[0] === 'string' ? `Rubin diaObjectId ${rubin[0]}` : undefined;
}

/** Width in pixels of a PNG (its IHDR chunk). */
function pngWidth(png: Buffer): number {
  return png.readUInt32BE(16);
}

/** A chart whose cutout's pack cannot be read is drawn as one without a cutout (its wider field and labels still help). */
function withoutUnavailableCutout(error: unknown): undefined {
  if (error instanceof CutoutPackUnavailable) return undefined;
  throw error;
}

function drawChart(
  locus: LocusRow,
  cutout: Uint8Array | undefined,
  pixelScale: number,
  nearby: LocusRow[],
  stars: FieldObject[],
): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `ANTARES finder chart: ${locus.locus_id}`, Creator: 'ANTARES' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  const sexagesimal = formatSexagesimal(locus.ra, locus.dec);
  const galactic = icrsToGalactic(locus.ra, locus.dec);
  const surveyId = surveyObjectId(locus);
  doc.fontSize(18).text(`ANTARES finder chart: ${locus.locus_id}`);
  doc
    .fontSize(11)
    .fillColor('#333')
    .text(surveyId ? `Survey object: ${surveyId}` : 'Survey object: none')
    .text(`ICRS: ${sexagesimal.ra} ${sexagesimal.dec}   (${formatDecimal(locus.ra)} ${formatDecimal(locus.dec)})`)
    .text(`Gal: ${formatDecimal(galactic.l)} ${formatDecimal(galactic.b)}`)
    .text(`Chart made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);

  const top = 170;
  const size = 240;
  let png: Buffer | undefined;
  try {
    // FITS rows run south to north; flipping puts north up.
    png = cutout ? renderCutoutPng(cutout, { flipVertical: true }) : undefined;
  } catch {
    png = undefined;
  }
  // A ZTF cutout is 63 px across; without one, the left panel keeps that field.
  const left: Panel = { x: 40, y: top, size, fieldArcsec: (png ? pngWidth(png) : 63) * pixelScale };
  const right: Panel = { x: 40 + size + 35, y: top, size, fieldArcsec: CONTEXT_FIELD_ARCSEC };

  if (png) doc.image(png, left.x, left.y, { width: size, height: size });
  else placeholder(doc, left, cutout ? 'science cutout unreadable' : 'no science cutout');
  frame(doc, left, `Newest science image (${Math.round(left.fieldArcsec)}")`);
  marker(doc, left, 0, 0, '#e5006d', 10);
  scaleBar(doc, left, 10, '10"');
  compass(doc, left);

  frame(doc, right, `Catalog objects and nearby loci (${CONTEXT_FIELD_ARCSEC / 60}' field)`);
  const inField = (dx: number, dy: number) => Math.abs(dx) <= right.fieldArcsec / 2 && Math.abs(dy) <= right.fieldArcsec / 2;
  const shown = stars.filter((star) => inField(...offsetArcsec(locus, star)));
  doc.save();
  doc.rect(right.x, right.y, right.size, right.size).clip();
  for (const star of shown) {
    const [dx, dy] = offsetArcsec(locus, star);
    const [x, y] = toPage(right, dx, dy);
    if (star.radiusArcsec > POINT_SOURCE_RADIUS_ARCSEC) {
      // An extended object: its extent, to scale.
      doc
        .lineWidth(0.8)
        .strokeColor('#7f7f7f')
        .circle(x, y, (star.radiusArcsec / right.fieldArcsec) * right.size)
        .stroke();
    } else {
      doc.fillColor('#444').circle(x, y, 2.2).fill();
    }
    doc
      .fontSize(5.5)
      .fillColor('#444')
      .text(star.name, x + 4, y + 2, { lineBreak: false });
  }
  doc.restore();
  for (const other of nearby) {
    const [dx, dy] = offsetArcsec(locus, other);
    if (Math.abs(dx) > right.fieldArcsec / 2 || Math.abs(dy) > right.fieldArcsec / 2) continue;
    marker(doc, right, dx, dy, '#1f77b4', 4);
    doc
      .fontSize(6)
      .fillColor('#1f77b4')
      .text(other.locus_id, ...(toPage(right, dx, dy).map((v, i) => v + (i === 0 ? 5 : -3)) as [number, number]));
  }
  marker(doc, right, 0, 0, '#e5006d', 6);
  scaleBar(doc, right, 60, "1'", '#333');
  compass(doc, right);

  doc
    .fontSize(9)
    .fillColor('#333')
    .text(
      `Magenta: the locus ${locus.locus_id}. Blue: other ANTARES loci (${nearby.length} within the field). ` +
        `Grey: catalog objects (${shown.length}; dots are point sources, circles the extent of extended ones). North is up, east is left.`,
      40,
      top + size + 40,
      { width: 515 },
    );
  if (shown.length > 0) {
    const byCatalog = new Map<string, string[]>();
    for (const star of shown) byCatalog.set(star.catalog, [...(byCatalog.get(star.catalog) ?? []), star.name]);
    doc.moveDown(0.5).fontSize(8);
    for (const [catalog, names] of byCatalog) {
      doc.text(`${catalog}: ${names.slice(0, 20).join(', ')}${names.length > 20 ? `, and ${names.length - 20} more` : ''}`, { width: 515 });
    }
  }
  doc.end();
  return done;
}

/** Offsets on the tangent plane, in arcseconds: east (+RA) first, north second. */
function offsetArcsec(centre: { ra: number; dec: number }, point: { ra: number; dec: number }): [number, number] {
  const rad = Math.PI / 180;
  const dRa = (point.ra - centre.ra) * rad;
  const d0 = centre.dec * rad;
  const d = point.dec * rad;
  const cosC = Math.sin(d0) * Math.sin(d) + Math.cos(d0) * Math.cos(d) * Math.cos(dRa);
  const xi = (Math.cos(d) * Math.sin(dRa)) / cosC;
  const eta = (Math.cos(d0) * Math.sin(d) - Math.sin(d0) * Math.cos(d) * Math.cos(dRa)) / cosC;
  return [(xi / rad) * 3600, (eta / rad) * 3600];
}

/** East is left on the sky as seen from Earth, so +east offsets go left on the page. */
function toPage(panel: Panel, eastArcsec: number, northArcsec: number): [number, number] {
  const scale = panel.size / panel.fieldArcsec;
  return [panel.x + panel.size / 2 - eastArcsec * scale, panel.y + panel.size / 2 - northArcsec * scale];
}

function frame(doc: PDFKit.PDFDocument, panel: Panel, title: string) {
  doc.lineWidth(1).strokeColor('#000').rect(panel.x, panel.y, panel.size, panel.size).stroke();
  doc
    .fontSize(10)
    .fillColor('#000')
    .text(title, panel.x, panel.y - 16, { width: panel.size });
}

function placeholder(doc: PDFKit.PDFDocument, panel: Panel, text: string) {
  doc.rect(panel.x, panel.y, panel.size, panel.size).fill('#eee');
  doc
    .fontSize(10)
    .fillColor('#666')
    .text(text, panel.x, panel.y + panel.size / 2 - 5, { width: panel.size, align: 'center' });
}

function marker(doc: PDFKit.PDFDocument, panel: Panel, east: number, north: number, colour: string, radius: number) {
  const [x, y] = toPage(panel, east, north);
  doc.lineWidth(1.5).strokeColor(colour).circle(x, y, radius).stroke();
}

/** Amber shows on the dark cutout; the white field panel needs a dark bar. */
function scaleBar(doc: PDFKit.PDFDocument, panel: Panel, arcsec: number, label: string, colour = '#ffbf00') {
  const length = (arcsec / panel.fieldArcsec) * panel.size;
  const x = panel.x + 10;
  const y = panel.y + panel.size - 12;
  doc
    .lineWidth(2)
    .strokeColor(colour)
    .moveTo(x, y)
    .lineTo(x + length, y)
    .stroke();
  doc
    .fontSize(8)
    .fillColor(colour)
    .text(label, x, y - 11);
}

function compass(doc: PDFKit.PDFDocument, panel: Panel) {
  const x = panel.x + panel.size - 15;
  const y = panel.y + 35;
  doc
    .lineWidth(1.5)
    .strokeColor('#2ca02c')
    .moveTo(x, y)
    .lineTo(x, y - 22)
    .stroke()
    .moveTo(x, y)
    .lineTo(x - 22, y)
    .stroke();
  doc
    .fontSize(8)
    .fillColor('#2ca02c')
    .text('N', x - 3, y - 32)
    .text('E', x - 32, y - 4);
}
