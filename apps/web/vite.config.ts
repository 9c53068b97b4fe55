import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// The service worker (offline first): the app shell, every JS/CSS chunk and the
// QR decoder's WebAssembly are precached, so /scan and the rider pass (/me, /profile) open
// with no signal after one visit. Only those navigations fall back to the cached shell; the
// API, the landing page and everything else always go to the network. Registered by
// lib/service-worker.ts from the app's screens, not from the landing page.
const pwa = VitePWA({
  strategies: 'generateSW',
  injectRegister: false,
  filename: 'sw.js',
  includeAssets: ['favicon.svg', 'logo.svg', 'icons/*.png', 'scan.webmanifest'],
  manifest: {
    id: '/me',
    name: 'Mindanao Warriors Rider Pass',
    short_name: 'Rider Pass',
    description: 'Your rider code, number and category, for every station of the rally, even with no signal.',
    start_url: '/me',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#0c0a09',
    theme_color: '#0c0a09',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,wasm,svg,png,webmanifest}'],
    // The link preview image is for crawlers, never needed offline; dist/ssr is the server's
    // renderer (scripts/prerender.mjs), never sent to a browser.
    globIgnores: ['og-image.png', 'ssr/**', '**/node_modules/**'],
    // The zxing decoder's wasm is ~1.1 MB.
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    navigateFallback: '/index.html',
    navigateFallbackAllowlist: [/^\/scan\/?$/, /^\/me\/?$/, /^\/profile\/?$/],
    navigateFallbackDenylist: [/^\/api\//],
    // A new build takes over at once: a marshal's phone must not run last week's scanner.
    skipWaiting: true,
    clientsClaim: true,
    cleanupOutdatedCaches: true,
    inlineWorkboxRuntime: true,
    // Web Push: shows what the server pushes and opens its link (public/sw-push.js).
    importScripts: ['/sw-push.js'],
  },
});

export default defineConfig(({ isSsrBuild }) => ({
  // The prerender's server build (scripts/prerender.mjs) needs no service worker.
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [pwa])],
  server: {
    // API_PROXY points the dev server at another API (e.g. a second server on another port).
    proxy: { '/api': process.env.API_PROXY ?? 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/check-budget.mjs reads the manifest to measure what the landing page loads.
    manifest: true,
    sourcemap: false,
    // Every browser the riders use supports modulepreload; the polyfill would cost the
    // landing page's budget for nothing.
    modulePreload: { polyfill: false },
  },
}));
