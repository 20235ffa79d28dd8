// The sandboxed preload: exposes window.api (named calls from the contract) and nothing else.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { callChannel, callNames, eventChannel, eventNames, type CallName, type EventName } from '../shared/ipc/contract'
import { createApi } from './api'

const api = createApi(callNames, eventNames, {
  invoke: (name, arg) => ipcRenderer.invoke(callChannel(name as CallName), arg),
  subscribe: (event, listener) => {
    const channel = eventChannel(event as EventName)
    // Pass only the payload on: the IpcRendererEvent would hand the page a reference to ipcRenderer.
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => {
      ipcRenderer.removeListener(channel, wrapped)
    }
  }
})

contextBridge.exposeInMainWorld('api', api)
