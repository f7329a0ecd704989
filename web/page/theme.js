// Light and dark themes. The choice, in order: ?theme=light|dark, the user's last choice (kept in
// localStorage), else the system's prefers-color-scheme (followed live while the user has not
// chosen). The page's own chrome follows through <html data-theme>, the canvas UI through
// strata._setUiTheme. A button next to "Copy link" toggles; scripts call strata.setTheme().
(function () {
  'use strict';
  const strata = window.strata;
  const KEY = 'strata.theme';
  const system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: light)') : null;
  const fromUrl = new URLSearchParams(location.search).get('theme');
  let choice = fromUrl === 'light' || fromUrl === 'dark' ? fromUrl : stored(); // 'light' | 'dark' | 'auto'

  function stored() {
    try {
      const v = localStorage.getItem(KEY);
      return v === 'light' || v === 'dark' ? v : 'auto';
    } catch (e) {
      return 'auto'; // storage denied (sandboxed frame): still themed, just not remembered
    }
  }
  const effective = () => (choice === 'auto' ? (system && system.matches ? 'light' : 'dark') : choice);

  function apply() {
    const t = effective();
    document.documentElement.dataset.theme = t;
    strata._setUiTheme(t === 'light');
    if (button) {
      button.textContent = t === 'light' ? 'Dark' : 'Light';
      button.title = `Switch to the ${t === 'light' ? 'dark' : 'light'} theme`;
    }
    window.dispatchEvent(new CustomEvent('strata:theme', { detail: { theme: t, choice } }));
  }

  /** 'light' | 'dark' keep the choice; 'auto' follows the system again. Returns the theme in use. */
  function setTheme(name) {
    if (name !== 'light' && name !== 'dark' && name !== 'auto') throw new Error(`unknown theme: ${name}`);
    choice = name;
    try {
      if (name === 'auto') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, name);
    } catch (e) {
      /* not remembered; still applied */
    }
    apply();
    return effective();
  }
  strata.setTheme = setTheme;
  strata.theme = () => ({ theme: effective(), choice });

  let button = null;
  const bar = document.getElementById('copy-link');
  if (bar) {
    button = document.createElement('button');
    button.type = 'button';
    button.id = 'theme-button';
    bar.prepend(button);
    button.addEventListener('click', () => setTheme(effective() === 'light' ? 'dark' : 'light'));
  }
  if (system && system.addEventListener)
    system.addEventListener('change', () => {
      if (choice === 'auto') apply();
    });
  apply();
})();
