// Build setup for main, preload (sandboxed, so bundled to one CommonJS file) and the Vue renderer.
import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { META_CONTENT_SECURITY_POLICY } from './src/main/security'

/** Puts the CSP main enforces into the built index.html, so it also holds where no header is set. */
function cspMetaTag(): Plugin {
  return {
    name: 'ledgerline-csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      handler: () => [
        { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }
      ]
    }
  }
}

export default defineConfig(({ command }) => ({
  main: {
    // The shell and the service host it forks (a utility process in the app).
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts'), host: resolve(__dirname, 'src/main/host/entry.ts') } }
    },
    // Dev-only behaviour (trusting ELECTRON_RENDERER_URL) is compiled out of every other build.
    define: { __LEDGERLINE_DEV_BUILD__: JSON.stringify(command === 'serve') }
  },
  preload: {
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') } } }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } },
    resolve: { alias: { '@renderer': resolve(__dirname, 'src/renderer/src') } },
    plugins: [vue(), cspMetaTag()]
  }
}))
