/**
 * @skiptrace/console: the web console (a React app in ../app, built with Vite) and what a
 * server needs to offer it: ensureConsoleBuilt() on start, createConsoleRouter() at /console.
 */
export { ensureConsoleBuilt, CONSOLE_APP_DIR, CONSOLE_DIST_DIR, type EnsureBuiltResult } from './build.ts';
export { createConsoleRouter, type ConsoleRouterOptions } from './console.router.ts';
