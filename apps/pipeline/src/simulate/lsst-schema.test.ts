import { describe, expect, it } from 'vitest';

import { analyseLsstSchema } from '../sources/lsst-packet.ts';
import { LSST_ALERT_SCHEMA, lsstAlertSchema, lsstAlertType } from './lsst-schema.ts';

describe("the simulator's Rubin schema", () => {
  it('is recognised by the ingestion as Rubin 10.0 with no extra columns, and parses with BigInt longs', () => {
    expect(analyseLsstSchema(LSST_ALERT_SCHEMA)).toEqual({ schemaVersion: '10.0', extraFields: [] });
    expect(lsstAlertType().name).toBe('lsst.v10_0.alert');
    expect(analyseLsstSchema(lsstAlertSchema('11.0'))).toEqual({ schemaVersion: '11.0', extraFields: [] });
    expect(lsstAlertType('11.0').name).toBe('lsst.v11_0.alert');
  });
});
