// The questions only main can answer (native dialogs): what host code may ask, and the shapes main checks before it shows one.
import { z } from 'zod'

/** A yes/no question shown as a native dialog by main: money-moving and destructive calls need one. */
export interface ConfirmRequest {
  kind: 'confirm'
  title: string
  message: string
  detail: string
  /** The button that goes ahead, e.g. "Remove profile". */
  confirmLabel: string
}

/** A native save dialog. */
export interface SaveFileRequest {
  kind: 'saveFile'
  suggestedName: string
  filterName: string
  extensions: string[]
}

/** A native open dialog for one file (a statement to import). */
export interface OpenFileRequest {
  kind: 'openFile'
  title: string
  filterName: string
  extensions: string[]
}

export type AskRequest = ConfirmRequest | SaveFileRequest | OpenFileRequest

/** The questions host code may put to the user through main. */
export interface MainUi {
  confirm(request: Omit<ConfirmRequest, 'kind'>): Promise<boolean>
  /** The chosen path, or null when the user cancelled. */
  chooseSaveFile(request: Omit<SaveFileRequest, 'kind'>): Promise<string | null>
  /** The chosen file, or null when the user cancelled. */
  chooseOpenFile(request: Omit<OpenFileRequest, 'kind'>): Promise<string | null>
}

/** Checked by main before it shows anything the host asks for. */
export const askRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('confirm'),
    title: z.string().max(200),
    message: z.string().max(500),
    detail: z.string().max(2000),
    confirmLabel: z.string().max(60)
  }),
  z.strictObject({
    kind: z.literal('saveFile'),
    suggestedName: z.string().max(255),
    filterName: z.string().max(60),
    extensions: z.array(z.string().regex(/^[a-z0-9]{1,8}$/)).max(16)
  }),
  z.strictObject({
    kind: z.literal('openFile'),
    title: z.string().max(200),
    filterName: z.string().max(60),
    extensions: z.array(z.string().regex(/^[a-z0-9]{1,8}$/)).max(16)
  })
])
