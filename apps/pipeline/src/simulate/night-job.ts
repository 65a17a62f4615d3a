// What one simulation writer is asked for (the main thread and each worker thread get the same).
import type { LsstSchemaVersion } from './lsst-schema.ts';
import type { OcfCodec } from './ocf-writer.ts';
import type { SurveyAnchors } from './plan.ts';

export interface NightJob {
  objects: number;
  nights: number;
  seed: number;
  startMjd: number;
  outDir: string;
  codec: OcfCodec;
  /** Real objects to place some simulated ones on (see planSurvey). */
  anchors?: SurveyAnchors;
  /** Rubin alerts too (see planSurvey; default true). */
  lsst?: boolean;
  /** Days of Rubin history before the first night (see planSurvey; default 30). */
  lsstHistoryDays?: number;
  /** Rubin alert schema written (default 10.0). */
  lsstSchemaVersion?: LsstSchemaVersion;
}
