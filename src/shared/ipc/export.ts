// The export domain of the IPC contract: what a search shows, written as an Excel-safe CSV in an export job.
import { z } from 'zod'
import { call } from './define'
import type { JobInfo } from './jobs'
import { searchFilters } from './search'

export interface ExportStarted {
  /** null when the user closed the save dialog. */
  job: JobInfo | null
}

export const exportCalls = {
  /** Asks where to save in a native dialog, then writes the file in an export job; plain: for accounting software, not Excel. */
  'export:csv': call<ExportStarted>()(z.strictObject({ ...searchFilters, plain: z.boolean().optional() }))
} as const
