/** The wizard's states (spec section 2): REQUEST, SENT, SUBMIT, FINISHED, EXPIRED. */
export type ResetStep = 'REQUEST' | 'SENT' | 'SUBMIT' | 'FINISHED' | 'EXPIRED';

/** The payload of a JWT (base64url JSON), or null when it cannot be decoded. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The starting state for a `token` query value: none -> REQUEST; a token whose `exp` claim is still in
 * the future -> SUBMIT; expired, without exp, or undecodable -> EXPIRED. (The server checks the
 * signature and single use; this only spares the user a form that cannot work.)
 */
export function initialResetStep(token: string | null, nowMs = Date.now()): ResetStep {
  if (token === null) return 'REQUEST';
  const payload = decodeJwtPayload(token);
  const exp = payload?.exp;
  return typeof exp === 'number' && exp * 1000 > nowMs ? 'SUBMIT' : 'EXPIRED';
}
