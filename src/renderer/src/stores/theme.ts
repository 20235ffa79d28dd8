// Theme store: light, dark, or the computer's choice, remembered on this computer.
import { defineStore } from 'pinia'
import { computed, ref, type ComputedRef } from 'vue'
import { useOsTheme } from 'naive-ui'

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

/** Whether the screens are dark now: the choice made here, or the computer's when the choice is "system" (call in a component's setup). */
export function useDarkTheme(): ComputedRef<boolean> {
  const os = useOsTheme()
  const theme = useThemeStore()
  return computed(() => (theme.choice === 'system' ? os.value === 'dark' : theme.choice === 'dark'))
}
