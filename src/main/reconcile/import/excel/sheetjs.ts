// SheetJS, read once a workbook is: a module of megabytes that every command and the host would otherwise load at start (a fifth of a second), for the few statements that are spreadsheets.
import type * as SheetJs from '@e965/xlsx'

let loaded: typeof SheetJs | null = null

/** Loads SheetJS (once); the readers below it are synchronous and take it from sheetJs(). */
export async function loadSheetJs(): Promise<typeof SheetJs> {
  return (loaded ??= await import('@e965/xlsx'))
}

/** SheetJS, loaded by loadSheetJs before a workbook is read. */
export function sheetJs(): typeof SheetJs {
  if (loaded === null) throw new Error('SheetJS is used before loadSheetJs() loaded it')
  return loaded
}
