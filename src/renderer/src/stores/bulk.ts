// Bulk file builders: the rows of a payout and a plan file being built, checked by the shared rules as the user types (a whole file in slices, so the window never stalls), sent and followed back.
import Papa from 'papaparse'
import { defineStore } from 'pinia'
import { markRaw, reactive, shallowRef } from 'vue'
import { BULK_COLUMNS } from '../../../shared/bulk/read'
import { ProblemList, sortProblems, type BulkKind, type BulkProblem } from '../../../shared/bulk/problems'
import { BulkTally, CURRENCY_CELL, rowChecker, type BulkContext, type CurrencyTotal } from '../../../shared/bulk/validate'
import { providerCsv } from '../../../shared/bulk/write'
import type { BulkContextInfo, SentFile, SentFileStatus } from '../../../shared/ipc/bulk'
import type { CallError } from '../../../shared/ipc/result'
import { fileToBase64 } from '../files'
import { profileScoped } from './profile-scope'

/** One row of a builder: a cell per spec column, as typed. */
export type BuilderRow = Record<string, string>

export interface BuilderReport {
  rows: number
  rowsWithErrors: number
  errors: number
  warnings: number
  totals: CurrencyTotal[]
}

/** The spreadsheet row of grid row `index` (the header is row 1), as in every problem and the exported file. */
export const sheetRow = (index: number): number => index + 2

const emptyRow = (kind: BulkKind): BuilderRow => Object.fromEntries(BULK_COLUMNS[kind].map((c) => [c, '']))
const cellsOf = (kind: BulkKind, row: BuilderRow): string[] => BULK_COLUMNS[kind].map((c) => (row[c] ?? '').trim())
const isBlank = (kind: BulkKind, row: BuilderRow): boolean => BULK_COLUMNS[kind].every((c) => (row[c] ?? '').trim() === '')

/** Rows fetched from the host at a time when a file is opened: a few milliseconds of parsing each. */
const READ_SLICE = 2_000

/** Gives the window a turn: the next task, after any pending input and paint. */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

function newBuilder(kind: BulkKind) {
  return reactive({
    kind,
    fileName: kind === 'transfers' ? 'payouts.csv' : 'plans.csv',
    /** Rows are plain objects the grid edits in place; `version` says they changed. */
    rows: shallowRef<BuilderRow[]>(markRaw([emptyRow(kind)])),
    version: 0,
    /** Problems by grid row index, from the last whole-file check plus the provider's own verdict. */
    problems: shallowRef<Map<number, BulkProblem[]>>(new Map()),
    /** Problems of the opened file as a whole (encoding, separator, header). */
    fileProblems: [] as BulkProblem[],
    /** What the provider said of the last file sent, placed on grid rows. */
    remote: shallowRef<Map<number, BulkProblem[]>>(new Map()),
    report: { rows: 0, rowsWithErrors: 0, errors: 0, warnings: 0, totals: [] } as BuilderReport,
    checking: false,
    /** Rows checked so far in the running whole-file check. */
    checked: 0,
    sending: false,
    /** Rows of an opened file still being read (0 when none), and how many are read. */
    reading: 0,
    readRows: 0,
    lastSent: null as SentFile | null,
    error: null as CallError | null
  })
}

export const useBulkStore = defineStore('bulk', () => {
  const builders = { transfers: newBuilder('transfers'), plans: newBuilder('plans') }
  const context = shallowRef<BulkContextInfo>({ banks: {}, planReferences: [] })
  let rulesContext: BulkContext = {}
  const history = shallowRef<SentFile[]>([])
  const status = shallowRef<SentFileStatus | null>(null)
  const tickets: Record<BulkKind, number> = { transfers: 0, plans: 0 }
  const timers: Partial<Record<BulkKind, ReturnType<typeof setTimeout>>> = {}

  async function loadContext(): Promise<void> {
    const result = await window.api.bulk.context()
    if (!result.ok) return
    context.value = result.value
    rulesContext = {
      banks: new Map(Object.entries(result.value.banks).map(([currency, list]) => [currency, new Map(list.map((b) => [b.code, b.name]))])),
      planReferences: new Set(result.value.planReferences)
    }
    for (const kind of ['transfers', 'plans'] as const) schedule(kind, 0)
  }

  /**
   * Checks every row with the shared rules in slices of at most ~8 ms, giving the window a turn in
   * between; a newer edit cancels a running check and starts again.
   */
  async function checkAll(kind: BulkKind): Promise<void> {
    const b = builders[kind]
    const ticket = ++tickets[kind]
    const rows = b.rows
    const check = rowChecker(kind, rulesContext, b.rows.length)
    const currencyAt = CURRENCY_CELL[kind]
    const problems = new ProblemList()
    const tally = new BulkTally()
    let sliceStart = performance.now()
    let filled = 0
    b.checking = true
    b.checked = 0
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i] as BuilderRow
      if (!isBlank(kind, row)) {
        filled++
        const before = problems.errors
        const cells = cellsOf(kind, row)
        tally.add(cells[currencyAt] as string, check(cells, sheetRow(i), problems), problems.errors > before)
      }
      if ((i & 255) === 255 && performance.now() - sliceStart > 8) {
        b.checked = i + 1
        await nextTask()
        if (ticket !== tickets[kind]) return
        sliceStart = performance.now()
      }
    }
    const byRow = new Map<number, BulkProblem[]>()
    for (const p of sortProblems(problems.items, BULK_COLUMNS[kind])) {
      const index = (p.row ?? 0) - 2
      const list = byRow.get(index)
      if (list) list.push(p)
      else byRow.set(index, [p])
    }
    b.problems = byRow
    b.report = {
      rows: filled,
      rowsWithErrors: tally.rowsWithErrors,
      errors: problems.errors,
      warnings: problems.warnings,
      totals: tally.totals()
    }
    b.checking = false
    b.checked = rows.length
    b.version++
  }

  function schedule(kind: BulkKind, delayMs = 150): void {
    clearTimeout(timers[kind])
    builders[kind].checking = true
    timers[kind] = setTimeout(() => void checkAll(kind), delayMs)
  }

  /**
   * After an edit of grid row `index`: that row's own rules at once (so the cell shows its error
   * as the user types), the whole file (repeats, duplicates, totals) shortly after.
   */
  function edited(kind: BulkKind, indexes: Iterable<number>): void {
    const b = builders[kind]
    const next = new Map(b.problems)
    for (const index of indexes) {
      const row = b.rows[index]
      if (!row) continue
      const problems = new ProblemList()
      if (!isBlank(kind, row)) rowChecker(kind, rulesContext)(cellsOf(kind, row), sheetRow(index), problems)
      if (problems.items.length) next.set(index, problems.items)
      else next.delete(index)
      if (b.remote.has(index)) {
        const remote = new Map(b.remote)
        remote.delete(index)
        b.remote = remote
      }
    }
    b.problems = next
    b.version++
    schedule(kind)
  }

  function setRows(kind: BulkKind, rows: BuilderRow[]): void {
    const b = builders[kind]
    b.rows = markRaw(rows.length ? rows : [emptyRow(kind)])
    b.remote = new Map()
    b.version++
    schedule(kind, 0)
  }

  function addRows(kind: BulkKind, at: number, count = 1, from?: BuilderRow): number {
    const b = builders[kind]
    const rows = [...b.rows]
    rows.splice(at, 0, ...Array.from({ length: count }, () => (from ? { ...from } : emptyRow(kind))))
    setRows(kind, rows)
    return at
  }

  function deleteRows(kind: BulkKind, indexes: number[]): void {
    const drop = new Set(indexes)
    setRows(
      kind,
      builders[kind].rows.filter((_, i) => !drop.has(i))
    )
  }

  function setCell(kind: BulkKind, index: number, column: string, value: string): void {
    const row = builders[kind].rows[index]
    if (!row) return
    row[column] = value
    edited(kind, [index])
  }

  /**
   * Writes a pasted block (rows of cells, as a spreadsheet copies them) from a grid cell on,
   * adding rows at the end when the block is taller than what is left.
   */
  function paste(kind: BulkKind, startRow: number, startColumn: number, block: string[][]): void {
    const columns = BULK_COLUMNS[kind]
    const b = builders[kind]
    // A spreadsheet's copy ends in a line break, which reads as one more, empty, row.
    let height = block.length
    while (height > 0 && (block[height - 1] as string[]).every((cell) => cell.trim() === '')) height--
    block = block.slice(0, height)
    const rows = [...b.rows]
    while (rows.length < startRow + block.length) rows.push(emptyRow(kind))
    const touched: number[] = []
    block.forEach((cells, r) => {
      const row = rows[startRow + r] as BuilderRow
      cells.forEach((value, c) => {
        const column = columns[startColumn + c]
        if (column) row[column] = value.trim()
      })
      touched.push(startRow + r)
    })
    b.rows = markRaw(rows)
    edited(kind, touched)
  }

  /** The builder's rows as the provider's file, without blank rows; `index` maps each data row back to its grid row. */
  function fileOf(kind: BulkKind): { csv: string; index: number[] } {
    const b = builders[kind]
    const index: number[] = []
    const cells: string[][] = []
    b.rows.forEach((row, i) => {
      if (isBlank(kind, row)) return
      index.push(i)
      cells.push(cellsOf(kind, row))
    })
    return { csv: providerCsv(kind, cells), index }
  }

  async function open(kind: BulkKind, dropped?: File): Promise<boolean> {
    const b = builders[kind]
    const result = dropped
      ? await window.api.bulk.openDropped({ kind, name: dropped.name, base64: await fileToBase64(dropped) })
      : await window.api.bulk.open({ kind })
    b.error = result.ok ? null : result.error
    if (!result.ok || result.value === null) return false
    b.fileName = result.value.fileName
    b.fileProblems = result.value.fileProblems
    const rows = await readRows(kind, result.value.token, result.value.rowCount)
    if (rows) setRows(kind, rows)
    return rows !== null
  }

  /**
   * The opened file's rows, fetched and parsed a slice at a time with a turn for the window in
   * between, so a 100,000-row file never holds it for long. Null (and the error kept) when the
   * host no longer has the file.
   */
  async function readRows(kind: BulkKind, token: string, total: number): Promise<BuilderRow[] | null> {
    const columns = BULK_COLUMNS[kind]
    const b = builders[kind]
    const rows: BuilderRow[] = []
    b.reading = total
    b.readRows = 0
    try {
      for (let from = 0; from < total; from += READ_SLICE) {
        const piece = await window.api.bulk.rows({ token, from, count: Math.min(READ_SLICE, total - from) })
        if (!piece.ok) {
          b.error = piece.error
          return null
        }
        for (const cells of Papa.parse<string[]>(piece.value, { delimiter: ',', newline: '\n' }).data) {
          if (cells.length === 1 && cells[0] === '') continue
          const row: BuilderRow = {}
          for (let c = 0; c < columns.length; c++) row[columns[c] as string] = cells[c] ?? ''
          rows.push(row)
        }
        b.readRows = rows.length
        await nextTask()
      }
      return rows
    } finally {
      b.reading = 0
    }
  }

  async function save(kind: BulkKind): Promise<string | null> {
    const b = builders[kind]
    const result = await window.api.bulk.save({ kind, csv: fileOf(kind).csv, fileName: b.fileName })
    b.error = result.ok ? null : result.error
    return result.ok && result.value ? result.value.file : null
  }

  /** Sends the file (transfers: the API validates it; plans: the API creates them) and puts the provider's verdict on the rows. */
  async function send(kind: BulkKind, transport: 'json' | 'multipart' = 'json'): Promise<SentFile | null> {
    const b = builders[kind]
    const file = fileOf(kind)
    b.sending = true
    const result = await window.api.bulk.send({ kind, csv: file.csv, fileName: b.fileName, ...(kind === 'transfers' ? { transport } : {}) })
    b.sending = false
    b.error = result.ok ? null : result.error
    if (!result.ok) return null
    const sent = result.value
    b.lastSent = sent
    const remote = new Map<number, BulkProblem[]>()
    for (const p of sent.problems) {
      if (p.row === null) continue
      const index = file.index[p.row - 2]
      if (index === undefined) continue
      remote.set(index, [...(remote.get(index) ?? []), { ...p, row: sheetRow(index) }])
    }
    b.remote = remote
    b.version++
    await loadHistory()
    if (kind === 'plans' && sent.accepted) await loadContext()
    return sent
  }

  async function loadHistory(): Promise<void> {
    const result = await window.api.bulk.history()
    if (result.ok) history.value = result.value
  }

  async function loadStatus(sendId: number): Promise<CallError | null> {
    const result = await window.api.bulk.status({ sendId })
    status.value = result.ok ? result.value : null
    return result.ok ? null : result.error
  }

  async function follow(sendId: number, how: { bulkFileId: string } | { submit: true }): Promise<CallError | null> {
    const result = await window.api.bulk.follow({ sendId, ...how })
    if (!result.ok) return result.error
    await loadHistory()
    return loadStatus(sendId)
  }

  /** Problems to show on a grid row: the rules' and the provider's. */
  function rowProblems(kind: BulkKind, index: number): BulkProblem[] {
    const b = builders[kind]
    const local = b.problems.get(index) ?? []
    const remote = b.remote.get(index)
    return remote ? [...local, ...remote] : local
  }

  /** Another profile: what was sent and its statuses belong to the old one; the rows stay and are checked against the new profile's banks and plans. */
  async function profileChanged(): Promise<void> {
    for (const kind of ['transfers', 'plans'] as const) {
      const b = builders[kind]
      b.lastSent = null
      b.error = null
      b.remote = new Map()
    }
    status.value = null
    history.value = []
    await Promise.all([loadContext(), loadHistory()])
  }

  /** Asks where to save (main's dialog), then writes the sent file with each row's status, or only its failed rows. */
  const saveStatus = (sendId: number, variant: 'status' | 'retry') => window.api.bulk.saveStatus({ sendId, variant })

  profileScoped(() => void profileChanged())

  return {
    builders,
    context,
    history,
    status,
    loadContext,
    edited,
    setRows,
    addRows,
    deleteRows,
    setCell,
    paste,
    fileOf,
    open,
    save,
    send,
    loadHistory,
    loadStatus,
    follow,
    rowProblems,
    profileChanged,
    saveStatus
  }
})
