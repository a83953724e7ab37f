/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The app lives in web/; index.html sits at the repo root so `vite` needs no root option.
// The wasm module is built by scripts/build-wasm.mjs (wasm-bindgen --target web) into
// web/src/sim/pkg and loaded by the worker through `new URL(..., import.meta.url)`,
// which Vite turns into a hashed asset: no wasm plugin needed.
export default defineConfig({
  plugins: [react()],
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
  },
});
