import { useSyncExternalStore } from 'react';

import { readStored, writeStored } from './storage';

/**
 * The colour theme (Bootstrap 5.3's `data-bs-theme` on <html>). Without a stored choice it follows
 * the system's `prefers-color-scheme`, live; the navbar toggle stores a choice in local storage
 * (`antares.theme`), and choosing the system's own theme forgets it, so the page follows the system
 * again (ADR 0025). public/theme.js applies the same rule before the first paint.
 */
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'antares.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';
const isTheme = (value: unknown): value is Theme => value === 'light' || value === 'dark';
const listeners = new Set<() => void>();

function systemTheme(): Theme {
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function currentTheme(): Theme {
  return readStored(THEME_KEY, isTheme) ?? systemTheme();
}

function apply(): void {
  document.documentElement.setAttribute('data-bs-theme', currentTheme());
  for (const listener of listeners) listener();
}

export function setTheme(theme: Theme): void {
  if (theme === systemTheme()) {
    try {
      window.localStorage.removeItem(THEME_KEY);
    } catch {
      // storage disabled: nothing was stored either
    }
  } else writeStored(THEME_KEY, theme);
  apply();
}

/** Keeps <html> in step with the system while no choice is stored, and with other tabs' choices. */
export function watchTheme(): void {
  apply();
  window.matchMedia(DARK_QUERY).addEventListener('change', apply);
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_KEY || event.key === null) apply();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme);
}
