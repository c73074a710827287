/**
 * Build of the browser UI. Assets are addressed relatively (`base: './'`) and the page's `<base href>`
 * is written by the server, so one bundle works at `/` and under any reverse-proxy sub-path.
 */
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';
import { routePolicies } from './build/route-policies';

const fromHere = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromHere('.'),
  base: './',
  publicDir: fromHere('public'),
  plugins: [vue(), routePolicies(fromHere('../openapi/openapi.json'))],
  resolve: {
    alias: {
      '@api': fromHere('../openapi/client'),
      '@shared': fromHere('../shared'),
    },
  },
  build: {
    outDir: fromHere('dist'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
