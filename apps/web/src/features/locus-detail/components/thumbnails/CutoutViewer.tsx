import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';

import { cutoutFitsUrl, type CutoutType, useCutoutPixels } from '@/features/locus-detail/api/get-cutout-fits';
import { firstError } from '@/lib/api-client';
import { type ColormapName, COLORMAPS } from '@/lib/colormaps';

import { CUTOUT_STRETCHES, cutoutLevels, cutoutRgba, type CutoutStretch } from './cutout-render';

const TYPES: CutoutType[] = ['science', 'template', 'difference'];
const SIZE = 420;

/**
 * One cutout enlarged, drawn from the original FITS pixels with the stretch and colour map chosen
 * here (flipped vertically like the thumbnails), the pixel value under the pointer, and the FITS
 * file to download.
 */
export default function CutoutViewer({
  alertId,
  initialType,
  invert: initialInvert,
  onClose,
}: {
  alertId: string;
  initialType: CutoutType;
  invert: boolean;
  onClose: () => void;
}) {
  const [type, setType] = useState<CutoutType>(initialType);
  const [stretch, setStretch] = useState<CutoutStretch>('zscale');
  const [colormap, setColormap] = useState<ColormapName>('gray');
  const [invert, setInvert] = useState(initialInvert);
  const [probe, setProbe] = useState<string>('');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const pixels = useCutoutPixels(alertId, type);
  const levels = useMemo(() => (pixels.data ? cutoutLevels(pixels.data.data, stretch) : null), [pixels.data, stretch]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !pixels.data || !levels) return;
    const { width, height } = pixels.data;
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d')?.putImageData(new ImageData(cutoutRgba(levels, colormap, invert), width, height), 0, 0);
  }, [pixels.data, levels, colormap, invert]);

  // The canvas is flipped on screen (CSS), so the row under the pointer counts from the bottom.
  const onMove = (event: MouseEvent<HTMLCanvasElement>) => {
    if (!pixels.data) return;
    const { width, height, data } = pixels.data;
    const box = event.currentTarget.getBoundingClientRect();
    const column = Math.floor(((event.clientX - box.left) / box.width) * width);
    const row = height - 1 - Math.floor(((event.clientY - box.top) / box.height) * height);
    if (column < 0 || column >= width || row < 0 || row >= height) return setProbe('');
    setProbe(`x ${column + 1}, y ${row + 1}: ${String(data[row * width + column])}`);
  };

  return (
    <Modal show onHide={onClose} size="lg" centered aria-labelledby="cutout-viewer-title">
      <Modal.Header closeButton>
        <Modal.Title id="cutout-viewer-title" className="h5">
          {type[0].toUpperCase() + type.slice(1)} cutout of {alertId}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
          <ToggleButtonGroup
            type="radio"
            name="cutout-type"
            size="sm"
            value={type}
            onChange={(value: CutoutType) => setType(value)}
            aria-label="Cutout"
          >
            {TYPES.map((value) => (
              <ToggleButton key={value} id={`cutout-type-${value}`} value={value} variant="outline-secondary" className="text-capitalize">
                {value}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Form.Select
            size="sm"
            style={{ width: 'auto' }}
            aria-label="Stretch"
            value={stretch}
            onChange={(event) => setStretch(event.target.value as CutoutStretch)}
          >
            {CUTOUT_STRETCHES.map((option) => (
              <option key={option.value} value={option.value}>
                Stretch: {option.label}
              </option>
            ))}
          </Form.Select>
          <Form.Select
            size="sm"
            style={{ width: 'auto' }}
            aria-label="Colour map"
            value={colormap}
            onChange={(event) => setColormap(event.target.value as ColormapName)}
          >
            {(Object.keys(COLORMAPS) as ColormapName[]).map((name) => (
              <option key={name} value={name}>
                Colour map: {name}
              </option>
            ))}
          </Form.Select>
          <Form.Check
            type="switch"
            id="cutout-invert"
            label="Invert"
            checked={invert}
            onChange={(event) => setInvert(event.target.checked)}
          />
          <a className="btn btn-sm btn-outline-primary" href={cutoutFitsUrl(alertId, type)} download data-testid="cutout-download">
            Download FITS
          </a>
        </div>
        {pixels.isPending ? (
          <Spinner animation="border" size="sm" role="status" aria-label="Loading the FITS cutout" />
        ) : pixels.isError ? (
          <Alert variant="warning" className="mb-0">
            The FITS cutout could not be read: {firstError(pixels.error).detail ?? firstError(pixels.error).title}
          </Alert>
        ) : (
          <div className="d-flex flex-wrap gap-3 align-items-start">
            <canvas
              ref={canvasRef}
              className="thumb-flip"
              style={{ width: SIZE, height: SIZE, maxWidth: '100%' }}
              data-testid="cutout-canvas"
              data-stretch={stretch}
              data-colormap={colormap}
              role="img"
              aria-label={`${type} cutout of ${alertId}, ${stretch} stretch, ${colormap} colour map`}
              onMouseMove={onMove}
              onMouseLeave={() => setProbe('')}
            />
            <div className="small" style={{ maxWidth: 260 }}>
              <p className="mb-2" data-testid="cutout-probe" aria-live="polite">
                {probe || 'Point at a pixel for its value.'}
              </p>
              <p className="text-body-secondary mb-0">
                {pixels.data.width} x {pixels.data.height} pixels. Drawn from the FITS pixel values:{' '}
                {CUTOUT_STRETCHES.find((option) => option.value === stretch)!.astropy} in astropy.visualization terms, flipped vertically as
                the thumbnails are.
              </p>
            </div>
          </div>
        )}
      </Modal.Body>
    </Modal>
  );
}
