// Locale store: how days, times and counts are written on every screen and in the reports written from here (the computer's own unless the user chose one), remembered on this computer.
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import { knownLocale } from '../../../shared/locale'
import { displayLocale } from '../format'

/** 'system': the computer's (the browser's language); else a BCP 47 tag, or 'iso'. */
export type LocaleChoice = string
const KEY = 'ledgerline.locale'

export const useLocaleStore = defineStore('locale', () => {
  const choice = ref<LocaleChoice>(localStorage.getItem(KEY) ?? 'system')
  /** The locale in force: the choice, or the computer's; one the runtime does not know is ISO. */
  const locale = computed(() => knownLocale(choice.value === 'system' ? navigator.language : choice.value))
  watch(locale, (l) => (displayLocale.value = l), { immediate: true })
  function choose(next: LocaleChoice): void {
    choice.value = next
    localStorage.setItem(KEY, next)
  }
  return { choice, locale, choose }
})
