// The native dialogs main shows for the host: confirmations of money-moving and destructive calls, where to save a file, which file to open.
import { app, dialog, type BrowserWindow } from 'electron'
import { join } from 'node:path'
import type { MainUi } from '../ipc/questions'

export function nativeUi(window: () => BrowserWindow | null): MainUi {
  return {
    async confirm(request) {
      const options = {
        type: 'warning' as const,
        title: request.title,
        message: request.message,
        detail: request.detail,
        buttons: [request.confirmLabel, 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        noLink: true
      }
      const win = window()
      const answer = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options)
      return answer.response === 0
    },
    async chooseSaveFile(request) {
      const options = {
        defaultPath: join(app.getPath('documents'), request.suggestedName),
        filters: [{ name: request.filterName, extensions: request.extensions }]
      }
      const win = window()
      const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
    async chooseOpenFile(request) {
      const options = {
        title: request.title,
        defaultPath: app.getPath('documents'),
        properties: ['openFile' as const],
        filters: [{ name: request.filterName, extensions: request.extensions }]
      }
      const win = window()
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
      return result.canceled || !result.filePaths[0] ? null : result.filePaths[0]
    }
  }
}
