// The Electron shell: window, menus, native dialogs and the IPC gate. Every service runs in the service host, a utility process main supervises.
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, session, shell } from 'electron'
import type { BrowserWindowConstructorOptions, MenuItemConstructorOptions, WebContents } from 'electron'
import { existsSync, mkdirSync } from 'node:fs'
import path, { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { callChannel, callNames, calls } from '../shared/ipc/contract'
import { defaultDataDir, CACHE_FILE_NAME } from './app/paths'
import { HostSupervisor } from './host/supervisor'
import { createEventEmitter, type EventEmitter } from './ipc/events'
import { createGate, createSenderCheck } from './ipc/gate'
import { createFileLogger, LOG_FILE_NAME, type Logger } from './log'
import { redactSecrets } from './redact'
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  contentTypeFor,
  devContentSecurityPolicy,
  isAllowedExternalUrl,
  mainWindowOptions,
  PERMISSIONS_GRANTED,
  resolveAppAsset
} from './security'
import { nativeUi } from './shell/dialogs'
import { utilityHostLauncher } from './shell/host-launcher'

/** The dev server's URL, honoured only in a development build (`electron-vite dev`): a build-time flag, never a run-time check. */
const devServerUrl = __LEDGERLINE_DEV_BUILD__ ? process.env['ELECTRON_RENDERER_URL'] : undefined
const rendererDir = join(__dirname, '../renderer')
const preloadFile = join(__dirname, '../preload/index.js')
const hostEntry = join(__dirname, 'host.js')
/**
 * better-sqlite3 for Electron's ABI. Packaged, electron-builder rebuilt it for Electron and it sits
 * unpacked beside app.asar, where better-sqlite3 finds it itself. Unpackaged (npm start, npm run
 * dev), scripts/electron-native.mjs built a copy beside Node's, which the host loads by path.
 */
const electronSqliteBinding = app.isPackaged
  ? undefined
  : join(app.getAppPath(), 'node_modules', '.ledgerline-electron', 'better_sqlite3.node')

// The same data folder as the CLI on every OS (test/app/packaging.test.ts checks both resolve alike).
app.setPath('userData', defaultDataDir())
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])

let mainWindow: BrowserWindow | null = null
let host: HostSupervisor | null = null
let hostStopped = false
let logger: Logger | null = null
const events: EventEmitter = createEventEmitter((channel, _event, payload) => mainWindow?.webContents.send(channel, payload))

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

/** Serves the built renderer on app://ledgerline/: only files inside its folder, each with the CSP. */
function serveAppScheme(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(request.url, rendererDir, path)
    if (!file || !existsSync(file)) return new Response('Not found', { status: 404 })
    const response = await net.fetch(pathToFileURL(file).toString())
    return new Response(response.body, {
      status: response.status,
      headers: {
        'Content-Type': contentTypeFor(file),
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff'
      }
    })
  })
}

function createWindow(): BrowserWindow {
  const options: BrowserWindowConstructorOptions = mainWindowOptions(preloadFile)
  const win = new BrowserWindow(options)
  win.once('ready-to-show', () => win.show())
  win.on('closed', () => {
    mainWindow = null
  })
  void win.loadURL(devServerUrl ?? APP_ENTRY_URL)
  return win
}

/** Starts the service host and wires every contract call through the gate to it. */
async function startServices(): Promise<void> {
  const userData = app.getPath('userData')
  const logs = app.getPath('logs')
  mkdirSync(userData, { recursive: true })
  logger = createFileLogger(join(logs, LOG_FILE_NAME))
  logger.info(`Ledgerline ${app.getVersion()} starting`)
  const supervisor = new HostSupervisor({
    launch: utilityHostLauncher(hostEntry),
    config: {
      app: {
        name: app.getName(),
        version: app.getVersion(),
        electronVersion: process.versions.electron ?? null,
        chromeVersion: process.versions.chrome ?? null
      },
      paths: { userData, cacheDatabase: join(userData, CACHE_FILE_NAME), logs },
      sqlite: electronSqliteBinding ? { nativeBinding: electronSqliteBinding } : {},
      sandboxStrictSpec: process.env['LEDGERLINE_SANDBOX_STRICT_SPEC'] === '1'
    },
    ui: nativeUi(() => mainWindow),
    onEvent: (name, payload) => {
      // The gate checks what goes to the window too: an event outside the contract, or malformed, stops here.
      try {
        events.emit(name as never, payload as never)
      } catch (error) {
        logError(`dropped event ${name.slice(0, 80)} from the service host: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
    log: (level, message) => (level === 'error' ? logError(message) : logger?.info(message))
  })
  host = supervisor
  const gate = createGate({
    contract: calls,
    isTrustedSender: createSenderCheck([devServerUrl ?? APP_ENTRY_URL]),
    forward: (name, arg) => supervisor.call(name, arg)
  })
  for (const name of callNames) {
    ipcMain.handle(callChannel(name), (event, arg: unknown) => {
      const frame = event.senderFrame
      const fromMainWindow = mainWindow !== null && event.sender === mainWindow.webContents
      return gate.dispatch(name, arg, {
        url: frame?.url ?? '',
        isMainFrame: fromMainWindow && frame !== null && frame === mainWindow?.webContents.mainFrame
      })
    })
  }
  await supervisor.start()
}

async function start(): Promise<void> {
  if (electronSqliteBinding && !existsSync(electronSqliteBinding)) {
    dialog.showErrorBox(
      'Ledgerline cannot open its database',
      `SQLite has not been built for Electron (${electronSqliteBinding} is missing). Start the app with "npm start", which builds it.`
    )
    app.quit()
    return
  }
  Menu.setApplicationMenu(buildMenu())
  hardenSession()
  serveAppScheme()
  try {
    await startServices()
  } catch (error) {
    dialog.showErrorBox('Ledgerline cannot open its data', redactSecrets(error instanceof Error ? error.message : String(error)))
    hostStopped = true
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
  // Let the host stop its jobs cleanly (each keeps what it saved) before the app exits.
  app.on('before-quit', (event) => {
    if (hostStopped || !host) return
    event.preventDefault()
    void host.stop().finally(() => {
      hostStopped = true
      app.quit()
    })
  })
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow()
  })
  void app.whenReady().then(start)
}
