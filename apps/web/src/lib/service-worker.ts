// The service worker (built by vite-plugin-pwa, see vite.config.ts) makes /scan and the
// rider pass open offline. It is registered from the app's screens, never from the landing
// page: most landing visitors never need it, and its install downloads the whole app.
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No service worker (private mode, http on a LAN address): the app still runs online.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
