import { MoonIcon, SunIcon } from '@/components/Icon';
import { setTheme, useTheme } from '@/lib/theme';

/** The navbar's light/dark switch: a toggle button, pressed in the dark theme. */
export function ThemeToggle() {
  const dark = useTheme() === 'dark';
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-light d-inline-flex me-2 theme-toggle"
      aria-label="Dark theme"
      aria-pressed={dark}
      title="Dark theme"
      data-testid="theme-toggle"
      onClick={() => setTheme(dark ? 'light' : 'dark')}
    >
      {dark ? <MoonIcon /> : <SunIcon />}
    </button>
  );
}
