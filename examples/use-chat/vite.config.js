import { defineConfig } from 'vite';

// JSX without a plugin: esbuild's automatic runtime is enough for this page.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  server: { port: 5173, strictPort: false },
});
