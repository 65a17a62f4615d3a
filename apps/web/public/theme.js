// Sets the colour theme on <html> before the first paint, so a dark page never flashes light: the
// choice stored by the navbar toggle (src/lib/theme.ts, same key and JSON form), else the system's.
// A classic blocking script from our own origin: the Content-Security-Policy refuses inline scripts.
(function () {
  var stored = null;
  try {
    stored = JSON.parse(localStorage.getItem('antares.theme'));
  } catch (e) {
    stored = null;
  }
  var dark = stored === 'dark' || (stored !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
})();
