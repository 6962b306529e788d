// The app's service worker (built by vite-plugin-pwa with Workbox: demo/vite.config.js), in the
// production build only: registered once the page has loaded; when a new build's worker is
// waiting, the page says "a new version is ready" and takes it on the user's click (the worker
// then takes over and the page reloads). Workbox removes the old caches.
import { registerSW } from 'virtual:pwa-register';

const banner = document.getElementById('update');
const updateSW = registerSW({
  onNeedRefresh() {
    banner.hidden = false;
  },
  onOfflineReady() {
    document.body.dataset.offline = 'ready';
  },
});
document.getElementById('update-reload').addEventListener('click', () => updateSW(true));
