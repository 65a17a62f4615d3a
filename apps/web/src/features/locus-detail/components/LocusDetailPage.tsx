import { Suspense, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useParams } from 'react-router';

import { SectionCard } from '@/components/SectionCard';
import { useLocusAlerts } from '@/features/locus-detail/api/get-alerts';
import { useLocus } from '@/features/locus-detail/api/get-locus';
import { useNearbyLoci } from '@/features/locus-detail/api/get-nearby-loci';
import { type LightcurvePoint, parseLightcurve } from '@/features/locus-detail/api/lightcurve';

import { AlertsTable } from './alerts/AlertsTable';
import { GravWaveTable } from './alerts/GravWaveTable';
import { AlertDistribution } from './charts/AlertDistribution';
import { AlertTypeLegend } from './charts/AlertTypeLegend';
import { RaDecChart } from './charts/RaDecChart';
import { ExternalLinks, externalLinks } from './header/ExternalLinks';
import { LocusHeader } from './header/LocusHeader';
import type { LightcurveSelection } from './lightcurve/lightcurve-chart';
import { LightcurveSection } from './lightcurve/LightcurveSection';
import { alertTypeOf, sortAlertTypes, sortPassbands } from './lightcurve/survey-codes';
import { CatalogMatches } from './sections/CatalogMatches';
import { LocusProperties } from './sections/LocusProperties';
import { LocusSummary } from './sections/LocusSummary';
import { SkyViewer } from './sections/SkyViewer';
import { ThumbnailGallery } from './thumbnails/ThumbnailGallery';

const NO_POINTS: LightcurvePoint[] = [];

function LocusDetail({ locusId }: { locusId: string }) {
  const { data: locus } = useLocus(locusId);
  const lightcurve = useMemo(() => {
    try {
      return { points: parseLightcurve(locus.lightcurve), error: null };
    } catch (error) {
      return { points: NO_POINTS, error: error instanceof Error ? error.message : String(error) };
    }
  }, [locus.lightcurve]);
  const alerts = useLocusAlerts(locus.id);
  const nearby = useNearbyLoci(locus.id, locus.ra, locus.dec);
  const [selection, setSelection] = useState<LightcurveSelection | null>(null);
  // The alert picked by clicking a lightcurve point: the gallery shows it, the alert table only it.
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const rcidByAlert = useMemo(() => {
    const map = new Map<string, number>();
    for (const alert of alerts.data ?? []) {
      const rcid = alert.properties.ztf_rcid;
      if (typeof rcid === 'number') map.set(alert.id, rcid);
    }
    return map;
  }, [alerts.data]);
  const passbands = useMemo(() => sortPassbands(lightcurve.points.map((p) => p.ant_passband)), [lightcurve.points]);
  const alertTypes = useMemo(() => sortAlertTypes(lightcurve.points.flatMap((p) => alertTypeOf(p) ?? [])), [lightcurve.points]);

  return (
    <>
      <LocusHeader locus={locus} />
      <Row className="g-4 mb-4">
        <Col lg={5}>
          <LocusSummary locus={locus} />
          <ExternalLinks links={externalLinks(locus.ra, locus.dec, locus.properties.ztf_object_id, locus.grav_wave_events ?? [])} />
        </Col>
        <Col lg={7}>
          <SkyViewer ra={locus.ra} dec={locus.dec} />
        </Col>
      </Row>
      <Row className="g-4 mb-4 align-items-start">
        <Col md="auto">
          <AlertDistribution points={lightcurve.points} />
        </Col>
        <Col md="auto">
          <RaDecChart ra={locus.ra} dec={locus.dec} points={lightcurve.points} nearby={nearby.data ?? []} />
        </Col>
        <Col md="auto">
          <AlertTypeLegend alertTypes={alertTypes} passbands={passbands} />
        </Col>
      </Row>
      <SectionCard title="Lightcurve">
        {lightcurve.error ? (
          <Alert variant="danger" className="mb-0">
            The lightcurve could not be read: {lightcurve.error}
          </Alert>
        ) : (
          <LightcurveSection
            locusId={locus.id}
            points={lightcurve.points}
            rcidByAlert={rcidByAlert}
            alerts={alerts.data}
            onSelectionChange={setSelection}
            pickedAlertId={picked}
            onPick={setPicked}
          />
        )}
      </SectionCard>
      <SectionCard title="Alert Thumbnails">
        <ThumbnailGallery points={lightcurve.points} selection={selection} pickedAlertId={picked} />
      </SectionCard>
      <SectionCard title="Alerts">
        <Tabs defaultActiveKey="alerts" id="locus-alert-tabs" className="mb-3">
          <Tab eventKey="alerts" title="Alerts">
            <AlertsTable
              alerts={alerts.data ?? []}
              isPending={alerts.isPending}
              error={alerts.error}
              selection={selection}
              pickedAlertId={picked}
              onClearPick={() => setPicked(undefined)}
            />
          </Tab>
          <Tab eventKey="gw" title="Gravitational wave events">
            <GravWaveTable alerts={alerts.data ?? []} isPending={alerts.isPending} />
          </Tab>
        </Tabs>
      </SectionCard>
      <SectionCard title="Catalog Matches">
        <CatalogMatches locusId={locus.id} />
      </SectionCard>
      <SectionCard title="Locus Properties" defaultOpen={false}>
        <LocusProperties locusId={locus.id} properties={locus.properties} />
      </SectionCard>
    </>
  );
}

export function Component() {
  const { locusId = '' } = useParams();
  return (
    <Suspense fallback={<p>Loading...</p>}>
      {/* Keyed so every locus starts with fresh selections, zoom and gallery state. */}
      <LocusDetail key={locusId} locusId={locusId} />
    </Suspense>
  );
}
