import { FEEDBACK_REQUIRED, TRANSITIONS, type VersionStatus } from '@antares/contract';

/** Statuses and transitions are the contract's: the server enforces the same table. */
export { TRANSITIONS, VERSION_STATUSES, type VersionStatus } from '@antares/contract';

export interface TransitionAction {
  target: VersionStatus;
  label: string;
  variant: 'primary' | 'secondary' | 'danger' | 'warning' | 'success';
  feedbackRequired: boolean;
}

/** The action of each target status: its button label and colour, and whether feedback is required. */
export const ACTIONS: Record<VersionStatus, TransitionAction> = {
  APPROVED: { target: 'APPROVED', label: 'Approve', variant: 'primary', feedbackRequired: FEEDBACK_REQUIRED.has('APPROVED') },
  DISABLED: { target: 'DISABLED', label: 'Disable', variant: 'secondary', feedbackRequired: FEEDBACK_REQUIRED.has('DISABLED') },
  REJECTED: { target: 'REJECTED', label: 'Reject', variant: 'danger', feedbackRequired: FEEDBACK_REQUIRED.has('REJECTED') },
  REVIEWED: { target: 'REVIEWED', label: 'Mark as reviewed', variant: 'primary', feedbackRequired: FEEDBACK_REQUIRED.has('REVIEWED') },
  PENDING_REVIEW: {
    target: 'PENDING_REVIEW',
    label: 'Mark as pending',
    variant: 'warning',
    feedbackRequired: FEEDBACK_REQUIRED.has('PENDING_REVIEW'),
  },
  ENABLED: { target: 'ENABLED', label: 'Enable', variant: 'success', feedbackRequired: FEEDBACK_REQUIRED.has('ENABLED') },
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
