// Theme store: light, dark, or the computer's choice, remembered on this computer.
import { defineStore } from 'pinia'
import { ref } from 'vue'

export type ThemeChoice = 'system' | 'light' | 'dark'
const KEY = 'ledgerline.theme'

export const useThemeStore = defineStore('theme', () => {
  const stored = localStorage.getItem(KEY)
  const choice = ref<ThemeChoice>(stored === 'light' || stored === 'dark' ? stored : 'system')
  function choose(next: ThemeChoice): void {
    choice.value = next
    localStorage.setItem(KEY, next)
  }
  return { choice, choose }
})
