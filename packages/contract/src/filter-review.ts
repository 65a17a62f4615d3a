/** Filter version statuses and the review workflow (spec section 4), enforced by the server and offered by the web app. */
export const VERSION_STATUSES = ['APPROVED', 'DISABLED', 'REJECTED', 'REVIEWED', 'PENDING_REVIEW', 'ENABLED'] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];

/** Which status may follow which; APPROVED and REJECTED have none defined. */
export const TRANSITIONS: Record<VersionStatus, VersionStatus[]> = {
  PENDING_REVIEW: ['REVIEWED'],
  REVIEWED: ['PENDING_REVIEW', 'ENABLED'],
  ENABLED: ['DISABLED'],
  DISABLED: ['PENDING_REVIEW', 'ENABLED'],
  APPROVED: [],
  REJECTED: [],
};

/** Moving a version to these statuses needs feedback for its owner. */
export const FEEDBACK_REQUIRED: ReadonlySet<VersionStatus> = new Set<VersionStatus>(['DISABLED', 'REJECTED']);

export function isVersionStatus(value: string): value is VersionStatus {
  return (VERSION_STATUSES as readonly string[]).includes(value);
}
