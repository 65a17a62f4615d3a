import type { getConfig as configEndpoint, ResponseOf } from '@antares/contract/endpoints';

/**
 * Runtime configuration, read once from /config.json before the app renders so that one build
 * works behind any host name (the server knows its public URLs, the bundle does not).
 */
export type AppConfig = Omit<ResponseOf<typeof configEndpoint>, 'team'>;

let current: AppConfig | null = null;

const FALLBACK: AppConfig = {
  apiURL: '/v1',
  frontendURL: '',
  supportEmail: 'antares@noirlab.edu',
  issueTrackerURL: '',
  chatInvitationURL: '',
};

function absolute(url: string): string {
  return new URL(url, window.location.origin).toString().replace(/\/+$/, '');
}

export async function loadConfig(): Promise<AppConfig> {
  let raw: Partial<AppConfig> = {};
  try {
    const response = await fetch('/config.json', { headers: { Accept: 'application/json' } });
    if (response.ok) raw = (await response.json()) as Partial<AppConfig>;
  } catch {
    // An unreachable config must not blank the page: the fallback keeps same-origin /v1.
  }
  const merged = { ...FALLBACK, ...raw };
  // The Vite dev server proxies /v1 itself; an absolute apiURL pointing at the API port would
  // make every call cross-origin while developing.
  const apiURL = import.meta.env.DEV ? '/v1' : merged.apiURL || '/v1';
  current = {
    ...merged,
    apiURL: absolute(apiURL),
    frontendURL: absolute(merged.frontendURL || window.location.origin),
  };
  return current;
}

export function getConfig(): AppConfig {
  if (!current) throw new Error('getConfig() called before loadConfig()');
  return current;
}
