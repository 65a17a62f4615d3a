import { THUMBNAIL_ORDER, type ThumbnailImage } from '@/components/ThumbnailTriplet';
import { cutoutFitsUrl, type CutoutType } from '@/features/locus-detail/api/cutout-url';

/**
 * The gallery's science, template and difference thumbnails (flipped vertically, as everywhere),
 * each a button that enlarges it in the cutout viewer, with its original FITS file to download.
 */
export function CutoutTriplet({
  alertId,
  images,
  size,
  gap,
  invert,
  onEnlarge,
}: {
  alertId: string;
  images: ThumbnailImage[];
  size: number;
  gap: number;
  invert: boolean;
  onEnlarge: (type: CutoutType) => void;
}) {
  return (
    <div className="d-flex flex-wrap" style={{ gap }}>
      {THUMBNAIL_ORDER.map((type) => {
        const image = images.find((item) => item.thumbnail_type === type);
        return image ? (
          <figure key={type} className="mb-0 text-center">
            <button
              type="button"
              className="p-0 border-0 bg-transparent d-block"
              style={{ cursor: 'zoom-in' }}
              onClick={() => onEnlarge(type)}
              aria-label={`Enlarge the ${type} cutout`}
            >
              <img
                src={image.src}
                alt={`${alertId} ${type} cutout`}
                width={size}
                height={size}
                loading="lazy"
                className={`thumb-flip ${invert ? 'thumb-invert' : ''}`}
              />
            </button>
            <figcaption className="small text-body-secondary">
              <span className="text-capitalize">{type}</span> ·{' '}
              <a href={cutoutFitsUrl(alertId, type)} download aria-label={`Download the ${type} cutout as FITS`}>
                FITS
              </a>
            </figcaption>
          </figure>
        ) : (
          <span key={type} className="d-inline-block bg-body-secondary" style={{ width: size, height: size }} title={`No ${type} cutout`} />
        );
      })}
    </div>
  );
}
