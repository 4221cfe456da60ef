// Runs before first paint so the page never flashes the wrong theme. Mantine's
// localStorageColorSchemeManager writes the bare value 'light' or 'dark' under this key.
(function () {
  var stored = null;
  try {
    stored = window.localStorage.getItem('rfckit.theme');
  } catch {
    // storage blocked (private mode): follow the system preference
  }
  var scheme = 'light';
  if (stored === 'light' || stored === 'dark') {
    scheme = stored;
  } else if (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches) {
    scheme = 'dark';
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
