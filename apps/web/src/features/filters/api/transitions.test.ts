import { describe, expect, it } from 'vitest';

import { ACTIONS, actionsFor, statusText, validateFeedback } from './transitions';

describe('version review transitions (spec section 4)', () => {
  it('offers the permitted targets of each status with their labels', () => {
    const labels = (status: string) => actionsFor(status).map((a) => a.label);
    expect(labels('PENDING_REVIEW')).toEqual(['Mark as reviewed']);
    expect(labels('REVIEWED')).toEqual(['Mark as pending', 'Enable']);
    expect(labels('ENABLED')).toEqual(['Disable']);
    expect(labels('DISABLED')).toEqual(['Mark as pending', 'Enable']);
    expect(labels('APPROVED')).toEqual([]);
    expect(labels('REJECTED')).toEqual([]);
    expect(labels('SOMETHING_ELSE')).toEqual([]);
  });

  it('colours the actions as the spec says and requires feedback only for Disable and Reject', () => {
    expect(Object.values(ACTIONS).map((a) => [a.label, a.variant, a.feedbackRequired])).toEqual([
      ['Approve', 'primary', false],
      ['Disable', 'secondary', true],
      ['Reject', 'danger', true],
      ['Mark as reviewed', 'primary', false],
      ['Mark as pending', 'warning', false],
      ['Enable', 'success', false],
    ]);
    expect(validateFeedback(ACTIONS.DISABLED, '  \n')).toBe('Feedback is required');
    expect(validateFeedback(ACTIONS.REJECTED, 'too slow')).toBeNull();
    expect(validateFeedback(ACTIONS.REVIEWED, '')).toBeNull();
  });

  it('shows statuses lowercased with spaces', () => {
    expect(statusText('PENDING_REVIEW')).toBe('pending review');
    expect(statusText('ENABLED')).toBe('enabled');
  });
});
