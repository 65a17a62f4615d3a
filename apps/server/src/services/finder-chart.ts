import PDFDocument from 'pdfkit';
import { compileLocusSearch, type LocusRow, type Repositories } from '@antares/db';
import { formatDecimal, formatSexagesimal, icrsToGalactic } from '@antares/astro';
import { renderCutoutPng } from '@antares/pipeline';
import { notFound } from '../errors.ts';

const CUTOUT_ARCSEC_PER_PIXEL = 1.01; // ZTF pixel scale
const CONTEXT_FIELD_ARCSEC = 240; // the wider panel: 4 arcminutes across

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
      ? await this.repos.thumbnails.findCutout(locus.newest_thumbnail_alert_id, 'science')
      : undefined;
    const search = compileLocusSearch({ query: { sky_distance: { distance: `${(CONTEXT_FIELD_ARCSEC / 2) * Math.SQRT2 / 3600} degree`, htm16: { center: `${locus.ra} ${locus.dec}` } } } });
    const nearby = (await this.repos.loci.search({ search, sort: [], limit: 200, offset: 0 })).rows.filter((l) => l.locus_id !== locus.locus_id);
    return drawChart(locus, cutout, nearby);
  }
}

function drawChart(locus: LocusRow, cutout: Uint8Array | undefined, nearby: LocusRow[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `ANTARES finder chart: ${locus.locus_id}`, Creator: 'ANTARES' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  const sexagesimal = formatSexagesimal(locus.ra, locus.dec);
  const galactic = icrsToGalactic(locus.ra, locus.dec);
  const surveyId = typeof locus.properties.ztf_object_id === 'string' ? locus.properties.ztf_object_id : undefined;
  doc.fontSize(18).text(`ANTARES finder chart: ${locus.locus_id}`);
  doc.fontSize(11).fillColor('#333')
    .text(surveyId ? `Survey object: ${surveyId}` : 'Survey object: none')
    .text(`ICRS: ${sexagesimal.ra} ${sexagesimal.dec}   (${formatDecimal(locus.ra)} ${formatDecimal(locus.dec)})`)
    .text(`Gal: ${formatDecimal(galactic.l)} ${formatDecimal(galactic.b)}`)
    .text(`Chart made ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);

  const top = 170;
  const size = 240;
  const left: Panel = { x: 40, y: top, size, fieldArcsec: 63 * CUTOUT_ARCSEC_PER_PIXEL };
  const right: Panel = { x: 40 + size + 35, y: top, size, fieldArcsec: CONTEXT_FIELD_ARCSEC };

  if (cutout) {
    try {
      // FITS rows run south to north; flipping puts north up.
      doc.image(renderCutoutPng(cutout, { flipVertical: true }), left.x, left.y, { width: size, height: size });
    } catch {
      placeholder(doc, left, 'science cutout unreadable');
    }
  } else {
    placeholder(doc, left, 'no science cutout');
  }
  frame(doc, left, `Newest science image (${Math.round(left.fieldArcsec)}")`);
  marker(doc, left, 0, 0, '#e5006d', 10);
  scaleBar(doc, left, 10, '10"');
  compass(doc, left);

  frame(doc, right, `Nearby loci (${CONTEXT_FIELD_ARCSEC / 60}' field)`);
  for (const other of nearby) {
    const [dx, dy] = offsetArcsec(locus, other);
    if (Math.abs(dx) > right.fieldArcsec / 2 || Math.abs(dy) > right.fieldArcsec / 2) continue;
    marker(doc, right, dx, dy, '#1f77b4', 4);
    doc.fontSize(6).fillColor('#1f77b4').text(other.locus_id, ...toPage(right, dx, dy).map((v, i) => v + (i === 0 ? 5 : -3)) as [number, number]);
  }
  marker(doc, right, 0, 0, '#e5006d', 6);
  scaleBar(doc, right, 60, "1'");
  compass(doc, right);

  doc.fontSize(9).fillColor('#333').text(
    `Magenta: the locus ${locus.locus_id}. Blue: other ANTARES loci (${nearby.length} within the field). North is up, east is left.`,
    40, top + size + 40, { width: 515 },
  );
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
  doc.fontSize(10).fillColor('#000').text(title, panel.x, panel.y - 16, { width: panel.size });
}

function placeholder(doc: PDFKit.PDFDocument, panel: Panel, text: string) {
  doc.rect(panel.x, panel.y, panel.size, panel.size).fill('#eee');
  doc.fontSize(10).fillColor('#666').text(text, panel.x, panel.y + panel.size / 2 - 5, { width: panel.size, align: 'center' });
}

function marker(doc: PDFKit.PDFDocument, panel: Panel, east: number, north: number, colour: string, radius: number) {
  const [x, y] = toPage(panel, east, north);
  doc.lineWidth(1.5).strokeColor(colour).circle(x, y, radius).stroke();
}

function scaleBar(doc: PDFKit.PDFDocument, panel: Panel, arcsec: number, label: string) {
  const length = (arcsec / panel.fieldArcsec) * panel.size;
  const x = panel.x + 10;
  const y = panel.y + panel.size - 12;
  doc.lineWidth(2).strokeColor('#ffbf00').moveTo(x, y).lineTo(x + length, y).stroke();
  doc.fontSize(8).fillColor('#ffbf00').text(label, x, y - 11);
}

function compass(doc: PDFKit.PDFDocument, panel: Panel) {
  const x = panel.x + panel.size - 15;
  const y = panel.y + 35;
  doc.lineWidth(1.5).strokeColor('#2ca02c').moveTo(x, y).lineTo(x, y - 22).stroke().moveTo(x, y).lineTo(x - 22, y).stroke();
  doc.fontSize(8).fillColor('#2ca02c').text('N', x - 3, y - 32).text('E', x - 32, y - 4);
}
