import { readFileSync } from 'node:fs';

/**
 * The filters ANTARES ships: public, enabled by default, owned by the system account (seed.ts). Each is
 * one Python file next to this one (class API A); README.md says what they do and why. Level 2 runs them
 * by priority, lowest first: the cheap position and catalogue taggers before the light-curve ones.
 */
export interface ShippedFilter {
  /** Filter name, unique case-insensitively among all filters; also the name of the one tag it gives. */
  name: string;
  description: string;
  priority: number;
  /** The Python file beside this module. */
  file: string;
  /** What the tag means, for the tag list: the .py file's OUTPUT_TAGS description, verbatim (a pytest checks). */
  tagDescription: string;
}

export const SHIPPED_FILTERS: readonly ShippedFilter[] = [
  {
    name: 'in_m31',
    priority: 10,
    file: 'in_m31.py',
    description: "Tags loci inside the Andromeda galaxy's (M31) D25 ellipse.",
    tagDescription: `Locus lies inside M31's D25 ellipse (OpenNGC: 177.83' x 69.66', PA 35 deg, centred on RA 10.6848, Dec +41.2691).`,
  },
  {
    name: 'high_snr',
    priority: 20,
    file: 'high_snr.py',
    description:
      'Tags loci with a ZTF detection of high signal-to-noise ratio (above 50 in g, 55 in R) or a triggering Rubin detection above 200.',
    tagDescription: `Locus has one or more ZTF detections with a high signal-to-noise ratio (SNR = 1.0857 / sigmapsf above 50 in g or 55 in R), or its triggering Rubin detection has psfFlux / psfFluxErr above 200.`,
  },
  {
    name: 'extragalactic',
    priority: 30,
    file: 'extragalactic.py',
    description:
      'Tags loci on a galaxy or quasar: a catalogued galaxy or quasar, or a galaxy-like Pan-STARRS1 source within 5" away from the Galactic plane.',
    tagDescription: `Locus lies on a galaxy or quasar: a match in an extragalactic catalog or on a catalogued galaxy (within half its minor axis), or the nearest Pan-STARRS1 source within 5" is galaxy-like (ztf_sgscore1 < 0.5), at Galactic latitude |b| >= 10 deg.`,
  },
  {
    name: 'nuclear_transient',
    priority: 40,
    file: 'nuclear_transient.py',
    description: 'Tags real, positive ZTF detections at the nucleus of a galaxy (TDEs, AGN flares, nuclear supernovae).',
    tagDescription: `Positive, real (rb >= 0.65, drb >= 0.8) ZTF detection within 0.5 pixel of a reference-image source that is a galaxy-like Pan-STARRS1 source within 1" (sgscore1 < 0.5): a transient at the nucleus of a galaxy.`,
  },
  {
    name: 'rubin_quality_transient',
    priority: 45,
    file: 'rubin_quality_transient.py',
    description: 'Tags real, positive, well-measured Rubin detections of sources first detected at most 10 days earlier.',
    tagDescription: `Real (reliability >= 0.9), positive, well-measured (psfFlux / psfFluxErr >= 10, no edge, cosmic-ray, interpolation, streak, shape or dipole flag) Rubin detection of a source first detected by Rubin at most 10 days earlier, with at least 2 detections.`,
  },
  {
    name: 'refitt_newsources_snrcut',
    priority: 50,
    file: 'refitt_newsources_snrcut.py',
    description: 'Tags young (first detected <= 10 days earlier), rising, well-measured (SNR >= 10) new transients for REFITT.',
    tagDescription: `Young rising transient for REFITT: first detected at most 10 days before the triggering ZTF detection, at most 15 detections, all positive, brighter than its earliest detection or an earlier limit in the same band, SNR >= 10, drb >= 0.5, and no star-like PS1 source within 1" or known asteroid within 5".`,
  },
  {
    name: 'lc_feature_extractor',
    priority: 60,
    file: 'lc_feature_extractor.py',
    description: 'Adds per-passband light-curve variability features (feature_*_magn_g/r/i) to loci.',
    tagDescription: `Light-curve features (feature_*_magn_<band>) were computed: some passband has at least 3 ZTF detections.`,
  },
];

/** A shipped filter's Python code, read from the file beside this module (so an edit is seen on the next start). */
export function shippedFilterCode(filter: ShippedFilter): string {
  return readFileSync(new URL(`./${filter.file}`, import.meta.url), 'utf8');
}
