import { saveBlob } from '@/lib/download';

import { HEIGHT, WIDTH } from './lightcurve-chart';

/**
 * Exports the lightcurve as a vector PDF: the live SVG is cloned (minus the brush's invisible
 * interaction rectangles) and converted by svg2pdf.js into a jsPDF page of the same size.
 * Both libraries are loaded on first use so they stay out of the page's initial JavaScript.
 */
export async function exportSvgToPdf(svg: SVGSVGElement, fileName: string): Promise<void> {
  const [{ jsPDF }, { svg2pdf }] = await Promise.all([import('jspdf'), import('svg2pdf.js')]);
  // The chart is as wide as its card: the page takes its current size.
  const width = Number(svg.getAttribute('width')) || WIDTH;
  const height = Number(svg.getAttribute('height')) || HEIGHT;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.querySelectorAll('.brush .overlay, .brush .handle, .marks circle.picked').forEach((node) => node.remove());
  clone.querySelectorAll('[tabindex]').forEach((node) => node.removeAttribute('tabindex'));
  // The axes draw in currentColor, which in the dark theme is light: the page is printed in the light colours.
  clone.setAttribute('color', '#222222');
  // svg2pdf measures text with the document's layout: keep the clone attached but invisible.
  const holder = document.createElement('div');
  holder.style.cssText = 'position:fixed;left:-10000px;top:0;width:0;height:0;overflow:hidden';
  holder.appendChild(clone);
  document.body.appendChild(holder);
  try {
    const pdf = new jsPDF({ orientation: 'landscape', unit: 'pt', format: [width, height] });
    await svg2pdf(clone, pdf, { x: 0, y: 0, width, height });
    saveBlob(pdf.output('blob'), fileName);
  } finally {
    holder.remove();
  }
}
