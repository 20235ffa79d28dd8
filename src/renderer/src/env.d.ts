// Types the renderer's globals: window.api from the preload, and .vue single-file components.
import type { Api } from '../../shared/ipc/contract'

declare global {
  interface Window {
    readonly api: Api
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}

export {}
