// Renderer entry: mounts the Vue app with Pinia and the router.
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import App from './App.vue'
import { fixLibraryMarkup } from './a11y-shims'
import { router } from './router'
import './styles.css'

const root = document.getElementById('app') as HTMLElement
createApp(App).use(createPinia()).use(router).mount(root)
// The whole body: dialogs and menus are put there, outside the app's root.
fixLibraryMarkup(document.body)
