// What a bulk CSV check reports: one problem per file, row or cell, with a stable code, a plain message and where it is.

export type BulkKind = 'transfers' | 'plans'
export const BULK_KINDS = ['transfers', 'plans'] as const

export type Severity = 'error' | 'warning'

export interface BulkProblem {
  /** The row number a spreadsheet shows (the header is row 1); null for a problem of the whole file. */
  row: number | null
  /** The provider's column name (docs/api.md, Bulk files); null when the problem is not in one column. */
  column: string | null
  /** Stable machine code, e.g. `account_number_length`; never reworded. */
  code: string
  /** A plain sentence that says what is wrong and how to fix it. */
  message: string
  severity: Severity
}

/** Collects problems as the rules find them; rules never throw for bad input. */
export class ProblemList {
  readonly items: BulkProblem[] = []
  errors = 0
  warnings = 0

  error(row: number | null, column: string | null, code: string, message: string): void {
    this.items.push({ row, column, code, message, severity: 'error' })
    this.errors++
  }

  warning(row: number | null, column: string | null, code: string, message: string): void {
    this.items.push({ row, column, code, message, severity: 'warning' })
    this.warnings++
  }
}

/** Problems in reading order: the file's own first, then by row, then by the column's place in the spec. */
export function sortProblems(problems: BulkProblem[], columns: readonly string[]): BulkProblem[] {
  const place = (column: string | null): number => (column === null ? -1 : columns.indexOf(column))
  return problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => (a.problem.row ?? 0) - (b.problem.row ?? 0) || place(a.problem.column) - place(b.problem.column) || a.index - b.index)
    .map(({ problem }) => problem)
}

/** A cell's text as shown in a message: quoted, cut short, control characters made visible. */
export function shown(value: string, limit = 40): string {
  const visible = value.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '↵' : c === '\t' ? '⇥' : '�'))
  return `"${visible.length > limit ? `${visible.slice(0, limit)}…` : visible}"`
}
