// Constants electron-vite defines at build time (electron.vite.config.ts).

/** True only in `electron-vite dev` builds: what may trust ELECTRON_RENDERER_URL and open DevTools. */
declare const __LEDGERLINE_DEV_BUILD__: boolean
