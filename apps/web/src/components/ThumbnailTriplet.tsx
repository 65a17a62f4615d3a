export interface ThumbnailImage {
  thumbnail_type: string;
  src: string;
}

export const THUMBNAIL_ORDER = ['science', 'template', 'difference'] as const;

export const THUMBNAIL_HELP =
  'Survey thumbnails are flipped vertically to match the sky orientation. Thumbnails newer than 2022-02-13 are scaled to maximise feature resolution.';

/** Science, template and difference cutouts side by side, flipped vertically for display. */
export function ThumbnailTriplet({
  images,
  size,
  gap = 2,
  invert = false,
  label,
}: {
  images: ThumbnailImage[];
  size: number;
  gap?: number;
  invert?: boolean;
  label: string;
}) {
  return (
    <div className={`d-flex ${size >= 100 ? 'flex-wrap' : 'flex-nowrap'}`} style={{ gap }}>
      {THUMBNAIL_ORDER.map((type) => {
        const image = images.find((item) => item.thumbnail_type === type);
        return image ? (
          <figure key={type} className="mb-0 text-center">
            <img
              src={image.src}
              alt={`${label} ${type} cutout`}
              width={size}
              height={size}
              loading="lazy"
              className={`thumb-flip ${invert ? 'thumb-invert' : ''}`}
            />
            {size >= 100 && <figcaption className="small text-body-secondary text-capitalize">{type}</figcaption>}
          </figure>
        ) : (
          <span key={type} className="d-inline-block bg-body-secondary" style={{ width: size, height: size }} title={`No ${type} cutout`} />
        );
      })}
    </div>
  );
}
