/** Filter version statuses and the review workflow (spec section 4). */
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

export interface TransitionAction {
  target: VersionStatus;
  label: string;
  variant: 'primary' | 'secondary' | 'danger' | 'warning' | 'success';
  feedbackRequired: boolean;
}

/** The action of each target status: its button label and colour, and whether feedback is required. */
export const ACTIONS: Record<VersionStatus, TransitionAction> = {
  APPROVED: { target: 'APPROVED', label: 'Approve', variant: 'primary', feedbackRequired: false },
  DISABLED: { target: 'DISABLED', label: 'Disable', variant: 'secondary', feedbackRequired: true },
  REJECTED: { target: 'REJECTED', label: 'Reject', variant: 'danger', feedbackRequired: true },
  REVIEWED: { target: 'REVIEWED', label: 'Mark as reviewed', variant: 'primary', feedbackRequired: false },
  PENDING_REVIEW: { target: 'PENDING_REVIEW', label: 'Mark as pending', variant: 'warning', feedbackRequired: false },
  ENABLED: { target: 'ENABLED', label: 'Enable', variant: 'success', feedbackRequired: false },
};

/** The buttons an admin sees for a version in a status (none for an unknown status). */
export function actionsFor(status: string): TransitionAction[] {
  return (TRANSITIONS[status as VersionStatus] ?? []).map((target) => ACTIONS[target]);
}

/** The status badge text: lowercased, underscores replaced by spaces. */
export function statusText(status: string): string {
  return status.toLowerCase().replace(/_/g, ' ');
}

export const STATUS_BADGE: Record<VersionStatus, string> = {
  APPROVED: 'primary',
  DISABLED: 'secondary',
  REJECTED: 'danger',
  REVIEWED: 'info',
  PENDING_REVIEW: 'warning',
  ENABLED: 'success',
};

/** The status modal's feedback rule: required only when the target requires it; trimmed. */
export function validateFeedback(action: TransitionAction, feedback: string): string | null {
  return action.feedbackRequired && feedback.trim() === '' ? 'Feedback is required' : null;
}
