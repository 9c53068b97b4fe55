import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
});
