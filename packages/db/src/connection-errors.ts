import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What a lost or refused database connection looks like through the pg driver (ADR 0059). The server
 * ends a backend with a FATAL error (57P01 an administrator or a fast shutdown, 57P02 a crash of
 * another backend, 57P03 not accepting connections yet, 08xxx the connection itself); the socket may
 * also just close or never open. After that the driver refuses the client's further queries with
 * messages of its own that carry no code, so those are matched by their wording.
 */
const LOST_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const LOST_MESSAGES = [
  'Connection terminated',
  'is not queryable',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'terminating connection',
  'the database connection closed during COPY',
];

/** Whether `error` means the database could not be reached or dropped the connection (try again later). */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (LOST_CODES.has(code) || code.startsWith('08'))) return true;
  if (LOST_MESSAGES.some((m) => error.message.includes(m))) return true;
  // AggregateError (a connect to every address of a host name refused) and errors wrapping their cause.
  const inner = (error as { errors?: unknown[] }).errors ?? [(error as { cause?: unknown }).cause];
  return inner.some((e) => e !== undefined && e !== error && isConnectionLost(e));
}

/** Whether `error` is PostgreSQL cancelling a statement that ran past statement_timeout (57014). */
export function isStatementTimeout(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '57014';
}

export interface RetryOptions {
  /** Waits before each further attempt, in ms; their count is the number of retries. */
  delaysMs?: number[];
  /** Told of each retry (what failed, the attempt about to be made, how long it waits first). */
  onRetry?: (error: Error, attempt: number, waitMs: number) => void;
}

/**
 * Back-off after a lost connection: 0.5 s doubling to 16 s, then 16 s, for about three minutes in all,
 * long enough for a PostgreSQL restart or a failover; a longer outage fails the work.
 */
export const CONNECTION_RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 16000, ...new Array<number>(10).fill(16000)];

/**
 * Runs `work` again, after a wait, while it fails because the database connection was lost. Only for
 * work that is safe to repeat: one transaction (rolled back by the server when its connection went)
 * or idempotent writes, as an ingestion batch is.
 */
export async function retryOnConnectionLoss<T>(work: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const delays = options.delaysMs ?? CONNECTION_RETRY_DELAYS_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= delays.length || !isConnectionLost(error)) throw error;
      options.onRetry?.(error as Error, attempt + 2, delays[attempt]);
      await sleep(delays[attempt]);
    }
  }
}

/** The default retry report: one line on stderr per retry. */
export function warnRetry(what: string): (error: Error, attempt: number, waitMs: number) => void {
  return (error, attempt, waitMs) =>
    console.warn(`database: ${what} lost its connection (${error.message}); attempt ${attempt} in ${waitMs / 1000} s`);
}
