// The offline validator (issue 45): Vite builds demo/ into a static folder (APP_OUT, default
// build/app) that any static server can host, under a sub-path when APP_BASE says so (e.g.
// APP_BASE=/safetensors-wasm/). vite-plugin-pwa adds, by Workbox, a service worker that
// precaches the whole app (the three .wasm files and the sample included) and serves it cache
// first, so that after a first visit it works with the network off; and the web app manifest,
// with the icons made from public/icon.svg and file handlers for model files. Nothing else is
// cached: a user's files are never fetched, and remote files go to the network. The page
// registers the worker and asks before a new build takes over (demo/offline.js).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const OUT = process.env.APP_OUT ?? fileURLToPath(new URL('../build/app', import.meta.url));
const BASE = process.env.APP_BASE ?? '/';
/** What the app opens when the system hands it files (the manifest's file_handlers). */
const MODEL_FILES = ['.safetensors', '.ckpt', '.pt', '.pth', '.bin', '.pkl'];

export default defineConfig({
  root: ROOT,
  base: BASE,
  // When this build was made, shown at the page's foot (each build's service worker differs).
  define: { 'import.meta.env.APP_BUILT': JSON.stringify(new Date().toISOString()) },
  logLevel: 'warn',
  build: { outDir: OUT, emptyOutDir: true },
  plugins: [
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      pwaAssets: { image: 'public/icon.svg', preset: 'minimal-2023', overrideManifestIcons: true },
      manifest: {
        name: 'safetensors-wasm: model file validator',
        short_name: 'safetensors',
        description:
          'Is this model file intact, safe, and would the reference loader accept it? Read on this machine, never uploaded; works offline.',
        theme_color: '#2f55d4',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: BASE,
        scope: BASE,
        file_handlers: [{ action: BASE, accept: { 'application/octet-stream': MODEL_FILES } }],
      },
      workbox: {
        // (manifest.webmanifest is added by the plugin itself: listing it too would make two entries.)
        globPatterns: ['**/*.{html,js,css,wasm,svg,png,ico,safetensors}'],
        // The .wasm files are a few hundred KB each; the sample is small.
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        cleanupOutdatedCaches: true,
        navigateFallback: 'index.html',
        runtimeCaching: [],
      },
    }),
  ],
});
