// The Electron shell, the only main-process file that imports electron: window, hardening, menu and IPC wiring.
import { app, BrowserWindow, dialog, ipcMain, Menu, net, session, shell } from 'electron'
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, WebContents } from 'electron'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { callChannel, callNames } from '../shared/ipc/contract'
import { createAppRouter } from './app/router'
import { AppServices } from './app/services'
import { openCache } from './cache/open'
import { createOsKeychainStore } from './secrets/secret-store'
import { createEventEmitter, type EventEmitter } from './ipc/events'
import { createSenderCheck } from './ipc/router'
import { createFileLogger, LOG_FILE_NAME, type Logger } from './log'
import { redactSecrets } from './redact'
import {
  CONTENT_SECURITY_POLICY,
  devContentSecurityPolicy,
  isAllowedExternalUrl,
  mainWindowOptions,
  PERMISSIONS_GRANTED
} from './security'

const devServerUrl = !app.isPackaged ? process.env['ELECTRON_RENDERER_URL'] : undefined
const rendererFile = join(__dirname, '../renderer/index.html')
const preloadFile = join(__dirname, '../preload/index.js')
/** Built for Electron's ABI by scripts/electron-native.mjs (npm start / npm run dev); Node keeps its own build. */
const electronSqliteBinding = join(app.getAppPath(), 'node_modules', '.ledgerline-electron', 'better_sqlite3.node')

let mainWindow: BrowserWindow | null = null
let services: AppServices | null = null
const events: EventEmitter = createEventEmitter((channel, _event, payload) => mainWindow?.webContents.send(channel, payload))

let logger: Logger | null = null

function logError(message: string): void {
  console.error(redactSecrets(message))
  logger?.error(message)
}

function buildMenu(): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        ...(devServerUrl ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' }
      ]
    },
    { role: 'windowMenu' }
  ]
  return Menu.buildFromTemplate(template)
}

/** Applied to every web contents the app ever creates: no navigation, no new windows, no webviews. */
function hardenContents(contents: WebContents): void {
  const openOutside = (url: string): void => {
    if (isAllowedExternalUrl(url)) {
      void shell.openExternal(url)
      return
    }
    events.emit('app:notice', {
      level: 'warning',
      message: `Blocked a link to ${url.slice(0, 200)}: Ledgerline only opens its known help pages in your browser.`
    })
  }
  const refuseNavigation = (event: { preventDefault(): void }, url: string): void => {
    event.preventDefault()
    openOutside(url)
  }
  contents.on('will-navigate', refuseNavigation)
  contents.on('will-redirect', refuseNavigation)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url)
    return { action: 'deny' }
  })
}

function hardenSession(): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(PERMISSIONS_GRANTED.includes(permission)))
  ses.setPermissionCheckHandler((_contents, permission) => PERMISSIONS_GRANTED.includes(permission))
  ses.setDevicePermissionHandler(() => false)
  const csp = devServerUrl ? devContentSecurityPolicy(devServerUrl) : CONTENT_SECURITY_POLICY
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
}

function createWindow(): BrowserWindow {
  const options: BrowserWindowConstructorOptions = mainWindowOptions(preloadFile)
  const win = new BrowserWindow(options)
  win.once('ready-to-show', () => win.show())
  win.on('closed', () => {
    mainWindow = null
  })
  if (devServerUrl) void win.loadURL(devServerUrl)
  else void win.loadFile(rendererFile)
  return win
}

async function chooseSaveFile(suggestedName: string): Promise<string | null> {
  const options = { defaultPath: join(app.getPath('documents'), suggestedName), filters: [{ name: 'CSV (Excel)', extensions: ['csv'] }] }
  const result = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options)
  return result.canceled || !result.filePath ? null : result.filePath
}

function wireIpc(): void {
  const userData = app.getPath('userData')
  const logs = app.getPath('logs')
  mkdirSync(userData, { recursive: true })
  const cacheFile = join(userData, 'cache.sqlite')
  logger = createFileLogger(join(logs, LOG_FILE_NAME))
  logger.info(`Ledgerline ${app.getVersion()} starting`)
  services = new AppServices({
    logger,
    db: openCache(cacheFile, { nativeBinding: electronSqliteBinding }),
    secrets: createOsKeychainStore(),
    events,
    chooseSaveFile,
    fetch: net.fetch as unknown as typeof fetch
  })
  const router = createAppRouter({
    services,
    env: {
      name: app.getName(),
      version: app.getVersion(),
      electronVersion: process.versions.electron ?? null,
      chromeVersion: process.versions.chrome ?? null,
      paths: { userData, cacheDatabase: cacheFile, logs },
      sqlite: { nativeBinding: electronSqliteBinding }
    },
    isTrustedSender: createSenderCheck([devServerUrl ?? pathToFileURL(rendererFile).href]),
    logError
  })
  for (const name of callNames) {
    ipcMain.handle(callChannel(name), (event, arg: unknown) => {
      const frame = event.senderFrame
      const fromMainWindow = mainWindow !== null && event.sender === mainWindow.webContents
      return router.dispatch(name, arg, {
        url: frame?.url ?? '',
        isMainFrame: fromMainWindow && frame !== null && frame === mainWindow?.webContents.mainFrame
      })
    })
  }
}

function start(): void {
  if (!existsSync(electronSqliteBinding)) {
    dialog.showErrorBox(
      'Ledgerline cannot open its database',
      `SQLite has not been built for Electron (${electronSqliteBinding} is missing). Start the app with "npm start", which builds it.`
    )
    app.quit()
    return
  }
  Menu.setApplicationMenu(buildMenu())
  hardenSession()
  try {
    wireIpc()
  } catch (error) {
    dialog.showErrorBox('Ledgerline cannot open its data', redactSecrets(error instanceof Error ? error.message : String(error)))
    app.quit()
    return
  }
  mainWindow = createWindow()
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.on('web-contents-created', (_event, contents) => hardenContents(contents))
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
  app.on('will-quit', () => {
    void services?.close()
  })
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow()
  })
  void app.whenReady().then(start)
}
