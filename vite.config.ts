/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The app lives in web/; index.html sits at the repo root so `vite` needs no root option.
// The wasm module is built by scripts/build-wasm.mjs (wasm-bindgen --target web) into
// web/src/sim/pkg and loaded by the worker through `new URL(..., import.meta.url)`,
// which Vite turns into a hashed asset: no wasm plugin needed.
//
// base './': every asset path is relative, so dist/ runs from any folder of any static web
// server (a course site's /course/ftl/) — README, "Put it on a course site".
// vite-plugin-pwa writes a service worker that precaches every built file (the .wasm, the
// worker, icons, manifest): after the first visit the app runs offline and makes no network
// request. public/manifest.webmanifest is ours (manifest: false), linked from index.html.
export default defineConfig({
  base: './',
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: false,
      workbox: {
        globPatterns: ['**/*.{js,css,html,wasm,svg,png,webmanifest}'],
        // the wasm core is over the 2 MiB default
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        navigateFallback: 'index.html',
        // ?embed=1, ?scenario=...: the same page
        ignoreURLParametersMatching: [/.*/],
        cleanupOutdatedCaches: true,
        // the first visit is controlled too, so a reload right after works offline
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  publicDir: 'public',
  build: {
    outDir: 'dist',
    target: 'es2022',
    chunkSizeWarningLimit: 1024,
  },
  worker: {
    format: 'es',
  },
  preview: {
    host: '127.0.0.1',
  },
  test: {
    include: ['web/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // A bound against a hung test, not a timed assertion: the wasm tests run whole
    // simulations and took 6-8 s at load 20 on CI's 2 cores (vitest's default is 5 s).
    testTimeout: 60_000,
  },
});
