const pending = new Map<string, Promise<void>>();

/**
 * Loads an external script once (the only run-time fetch from another site the app makes: the
 * Aladin Lite sky viewer). Rejects on error or after `timeoutMs`, so callers can show a placeholder.
 */
export function loadScript(src: string, timeoutMs = 15_000): Promise<void> {
  const existing = pending.get(src);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.crossOrigin = 'anonymous';
    const timer = window.setTimeout(() => reject(new Error(`Timed out loading ${src}`)), timeoutMs);
    script.onload = () => {
      window.clearTimeout(timer);
      resolve();
    };
    script.onerror = () => {
      window.clearTimeout(timer);
      reject(new Error(`Could not load ${src}`));
    };
    document.head.appendChild(script);
  });
  // A failed load may succeed later (network back): forget failures.
  promise.catch(() => pending.delete(src));
  pending.set(src, promise);
  return promise;
}
