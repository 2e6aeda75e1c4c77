// Child process of ensureConsoleBuilt(): runs Vite once into the folder given as argument.
// A separate process keeps the bundler's memory and native modules out of the server (and
// out of Jest's module sandbox when a test starts the system).
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { CONSOLE_APP_DIR } from './build.ts';

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: vite-build.ts <outDir>');
// Always React's production build, whoever starts us (Jest sets NODE_ENV=test, and Vite
// would take that and bundle React's development build: twice the size and slower).
process.env.NODE_ENV = 'production';
await build({
  configFile: false,
  mode: 'production',
  root: CONSOLE_APP_DIR,
  base: '/console/',
  logLevel: 'warn',
  plugins: [react()],
  build: { outDir, emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 800 },
});
