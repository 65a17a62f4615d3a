import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';

import { Hint } from '@/components/Hint';
import { THUMBNAIL_HELP, ThumbnailTriplet } from '@/components/ThumbnailTriplet';
import type { LocusListing } from '@/features/locus-list/api/get-loci';
import { formatFixed } from '@/lib/format';
import { mjdText } from '@/lib/time';

import { LocusRowActions } from './LocusRowActions';

/** 'YYYY-MM-DD HH:MM:SS' that may break only between the date and the time (narrow columns). */
function TimeCell({ mjd }: { mjd: unknown }) {
  const [date, time] = mjdText(mjd).split(' ');
  return date ? (
    <>
      <span className="text-nowrap">{date}</span> <span className="text-nowrap">{time}</span>
    </>
  ) : null;
}

/** Column ids are the API sort fields, so a header click maps straight to `sort=`. */
export const LOCUS_COLUMNS: ColumnDef<LocusListing>[] = [
  {
    id: 'id',
    header: 'ID',
    enableSorting: false,
    cell: ({ row }) => <Link to={`/loci/${encodeURIComponent(row.original.id)}`}>{row.original.id}</Link>,
  },
  {
    id: 'newest_thumbnails',
    header: () => (
      <Hint text={THUMBNAIL_HELP} placement="bottom">
        <span tabIndex={0} className="text-decoration-underline" style={{ textDecorationStyle: 'dotted' }}>
          Newest Thumbnails
        </span>
      </Hint>
    ),
    meta: { className: 'text-nowrap' },
    enableSorting: false,
    cell: ({ row }) => (
      <ThumbnailTriplet images={row.original.newestThumbnails.map((item) => item.data.attributes)} size={50} label={row.original.id} />
    ),
  },
  {
    id: 'properties.ztf_object_id',
    header: 'ZTF ID',
    accessorFn: (locus) => locus.properties.ztf_object_id ?? '',
  },
  { id: 'ra', header: 'RA', accessorFn: (locus) => locus.ra, meta: { numeric: true }, cell: ({ getValue }) => formatFixed(getValue()) },
  { id: 'dec', header: 'Dec', accessorFn: (locus) => locus.dec, meta: { numeric: true }, cell: ({ getValue }) => formatFixed(getValue()) },
  {
    id: 'properties.newest_alert_magnitude',
    header: 'Latest Mag',
    accessorFn: (locus) => locus.properties.newest_alert_magnitude,
    meta: { numeric: true },
    cell: ({ getValue }) => formatFixed(getValue()),
  },
  {
    id: 'properties.brightest_alert_magnitude',
    header: 'Brightest Mag',
    accessorFn: (locus) => locus.properties.brightest_alert_magnitude,
    meta: { numeric: true },
    cell: ({ getValue }) => formatFixed(getValue()),
  },
  {
    id: 'properties.num_mag_values',
    header: '# Alerts',
    accessorFn: (locus) => locus.properties.num_mag_values,
    meta: { numeric: true },
  },
  {
    id: 'properties.newest_alert_observation_time',
    header: 'Latest Alert',
    accessorFn: (locus) => locus.properties.newest_alert_observation_time,
    meta: { numeric: true },
    cell: ({ getValue }) => <TimeCell mjd={getValue()} />,
  },
  {
    id: 'properties.oldest_alert_observation_time',
    header: 'First Alert',
    accessorFn: (locus) => locus.properties.oldest_alert_observation_time,
    meta: { numeric: true },
    cell: ({ getValue }) => <TimeCell mjd={getValue()} />,
  },
  {
    id: 'actions',
    header: 'Actions',
    enableSorting: false,
    enableHiding: true,
    cell: ({ row }) => <LocusRowActions locusId={row.original.id} />,
  },
];

export const LOCUS_COLUMN_LABELS: Record<string, string> = {
  id: 'ID',
  newest_thumbnails: 'Newest Thumbnails',
  'properties.ztf_object_id': 'ZTF ID',
  ra: 'RA',
  dec: 'Dec',
  'properties.newest_alert_magnitude': 'Latest Mag',
  'properties.brightest_alert_magnitude': 'Brightest Mag',
  'properties.num_mag_values': '# Alerts',
  'properties.newest_alert_observation_time': 'Latest Alert',
  'properties.oldest_alert_observation_time': 'First Alert',
  actions: 'Actions',
};
