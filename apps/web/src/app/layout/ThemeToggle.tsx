import { setTheme, useTheme } from '@/lib/theme';

/** The navbar's light/dark switch: a toggle button, pressed in the dark theme. */
export function ThemeToggle() {
  const theme = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-light d-inline-flex align-items-center me-2 theme-toggle"
      aria-label="Dark theme"
      aria-pressed={dark}
      title={dark ? 'Switch to the light theme' : 'Switch to the dark theme'}
      data-testid="theme-toggle"
      onClick={() => setTheme(dark ? 'light' : 'dark')}
    >
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
        {dark ? (
          <path d="M6 .3a7 7 0 1 0 9.7 9.7A6 6 0 0 1 6 .3z" />
        ) : (
          <>
            <circle cx="8" cy="8" r="3.2" />
            <path
              d="M8 0v2.5M8 13.5V16M0 8h2.5M13.5 8H16M2.3 2.3l1.8 1.8M11.9 11.9l1.8 1.8M2.3 13.7l1.8-1.8M11.9 4.1l1.8-1.8"
              stroke="currentColor"
              strokeWidth="1.4"
            />
          </>
        )}
      </svg>
    </button>
  );
}
