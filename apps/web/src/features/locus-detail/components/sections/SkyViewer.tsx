import { useEffect, useRef, useState } from 'react';

import { loadScript } from '@/lib/load-script';

/** Aladin Lite v3, fetched at run time from its public site (never bundled), as the original does. */
const ALADIN_SCRIPT = 'https://aladin.cds.unistra.fr/AladinLite/api/v3/latest/aladin.js';
const HEIGHT = 300;

interface AladinGlobal {
  init: Promise<void>;
  aladin: (element: HTMLElement, options: Record<string, unknown>) => unknown;
}

/** The sky around the locus: colour survey, field of view 0.02 degree, 300 px high; a placeholder if offline. */
export function SkyViewer({ ra, dec }: { ra: number; dec: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    loadScript(ALADIN_SCRIPT)
      .then(async () => {
        const A = (window as unknown as { A?: AladinGlobal }).A;
        if (!A) throw new Error('Aladin Lite did not initialise');
        await A.init;
        if (cancelled || !ref.current) return;
        ref.current.innerHTML = '';
        A.aladin(ref.current, {
          survey: 'P/PanSTARRS/DR1/color-z-zg-g',
          fov: 0.02,
          target: `${ra} ${dec}`,
          showReticle: true,
          showLayersControl: false,
        });
        setState('ready');
      })
      .catch(() => !cancelled && setState('failed'));
    return () => {
      cancelled = true;
    };
  }, [ra, dec]);

  return (
    <div>
      <div ref={ref} style={{ height: HEIGHT, display: state === 'ready' ? 'block' : 'none' }} aria-label="Sky viewer" />
      {state !== 'ready' && (
        <div
          className="d-flex flex-column align-items-center justify-content-center text-center bg-dark text-light rounded"
          style={{ height: HEIGHT }}
          role="status"
          data-testid="sky-viewer-placeholder"
        >
          {state === 'loading' ? (
            <span>Loading the sky viewer...</span>
          ) : (
            <>
              <strong>Sky viewer unavailable</strong>
              <span className="small px-3">Aladin Lite could not be loaded from aladin.cds.unistra.fr (offline or blocked).</span>
              <a
                className="link-light small mt-1"
                href={`https://aladin.cds.unistra.fr/AladinLite/?target=${encodeURIComponent(`${ra} ${dec}`)}&fov=0.02&survey=P%2FPanSTARRS%2FDR1%2Fcolor-z-zg-g`}
                target="_blank"
                rel="noreferrer"
              >
                Open this position in Aladin Lite
              </a>
            </>
          )}
        </div>
      )}
    </div>
  );
}
