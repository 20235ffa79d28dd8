// Reconciliation store: the profile's sessions and imported files, the statement being previewed in the import wizard, and starting sessions and runs as host jobs.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { codeIs } from '../../../shared/error-codes'
import type { CallArg, JobInfo, StatementPreview } from '../../../shared/ipc/contract'
import { MAX_DROPPED_BYTES } from '../../../shared/ipc/reconcile'
import type { CallError, CallResult } from '../../../shared/ipc/result'
import type { ImportedFileInfo, ReconSettings, ReconSource, SampleFormat, SessionInfo } from '../../../shared/reconcile'

/** A mapping as the user changes it in the wizard (anything left out is guessed by the host). */
export type MappingChange = CallArg<'recon:preview'>['mapping']
import { useCall } from '../calls'
import { useJobsStore } from './jobs'
import { profileScoped } from './profile-scope'
import { fileToBase64 } from '../files'

/** What an import job ended with, for the wizard to say. */
export type ImportEnd = { ok: true; fileIds: string[]; rows: number; status: string } | { ok: false; message: string; error?: CallError }

/** A refusal that asks for a PDF's password, with the token of the file the host holds for it. */
function passwordAsked(error: CallError): { token: string; name: string; message: string; wrong: boolean } | null {
  if (!codeIs(error, 'pdf_password_required', 'pdf_password_wrong')) return null
  const details = error.details as { token?: unknown; name?: unknown } | undefined
  if (typeof details?.token !== 'string') return null
  return {
    token: details.token,
    name: typeof details.name === 'string' ? details.name : 'The statement',
    message: error.message,
    wrong: codeIs(error, 'pdf_password_wrong')
  }
}

export const useReconcileStore = defineStore('reconcile', () => {
  const jobs = useJobsStore()
  const sessions = ref<SessionInfo[]>([])
  const files = ref<ImportedFileInfo[]>([])
  const error = ref<CallError | null>(null)
  /** The statement open in the import wizard, and the mapping the user changed so far. */
  const preview = ref<StatementPreview | null>(null)
  const mapping = ref<MappingChange>({})
  /** A protected PDF waiting for its password: the host holds the file under `token`; `message` says why it asks (again). */
  const locked = ref<{ token: string; name: string; message: string; wrong: boolean } | null>(null)

  profileScoped(() => {
    listCall.reset()
    sessions.value = []
    files.value = []
    preview.value = null
    mapping.value = {}
    locked.value = null
    error.value = null
  })

  /** The profile's sessions and imported files together; an answer for a profile no longer in use is dropped. */
  const listCall = useCall(async (): Promise<CallResult<[SessionInfo[], ImportedFileInfo[]]>> => {
    const [s, f] = await Promise.all([window.api.recon.sessions(), window.api.recon.files()])
    return !s.ok ? s : !f.ok ? f : { ok: true, value: [s.value, f.value] }
  })

  async function load(): Promise<void> {
    const answer = await listCall.run()
    if (!answer) return
    if (answer.ok) [sessions.value, files.value] = answer.value
    error.value = answer.ok ? null : answer.error
  }

  function opened(answer: CallResult<StatementPreview | null>): CallError | null {
    if (!answer.ok) {
      const asked = passwordAsked(answer.error)
      if (!asked) return answer.error
      locked.value = asked
      return null
    }
    locked.value = null
    if (answer.value) {
      preview.value = answer.value
      mapping.value = {}
    }
    return null
  }

  /** Main's open dialog, then the host reads the file: nothing is stored yet. */
  async function openFile(): Promise<CallError | null> {
    return opened(await window.api.recon.open({}))
  }

  /** A statement dropped on the window: read here (the drop gave the renderer its bytes), previewed by the host. */
  async function openDropped(file: File): Promise<CallError | null> {
    if (file.size > MAX_DROPPED_BYTES)
      return {
        code: 'file_too_large',
        message: `${file.name} is ${Math.round(file.size / 1048576)} MB; open statements over ${MAX_DROPPED_BYTES / 1048576} MB with Import statement….`
      }
    return opened(await window.api.recon.openDropped({ name: file.name, base64: await fileToBase64(file) }))
  }

  /** The built-in Sandbox's sample statement, previewed like a chosen file. */
  async function openSample(format: SampleFormat = 'csv'): Promise<CallError | null> {
    return opened(await window.api.recon.sample({ format }))
  }

  /** Opens the protected PDF with the password the user typed; a wrong one asks again. The password is not kept here. */
  async function unlock(password: string): Promise<CallError | null> {
    const waiting = locked.value
    if (!waiting) return null
    return opened(await window.api.recon.unlock({ token: waiting.token, password }))
  }

  function cancelUnlock(): void {
    locked.value = null
  }

  /** Reads the open statement again with the mapping changed (a column, the date order, the decimal mark, the currency). */
  async function remap(change: MappingChange): Promise<CallError | null> {
    const shown = preview.value
    if (!shown) return null
    const next = {
      ...mapping.value,
      ...change,
      columns: { ...(mapping.value.columns ?? shown.mapping.columns), ...(change.columns ?? {}) }
    }
    const answer = await window.api.recon.preview({ token: shown.token, mapping: next })
    if (!answer.ok) return answer.error
    mapping.value = next
    preview.value = answer.value
    return null
  }

  async function runJob(started: CallResult<JobInfo>): Promise<JobInfo | CallError> {
    if (!started.ok) return started.error
    jobs.put(started.value)
    return jobs.finished(started.value.id)
  }

  /** Stores the previewed statement as an import job (the wizard stays open until its screen moves on). */
  async function importPreviewed(options: {
    ifSameFile?: 'use-existing' | 'import-again'
    ifSameRows?: 'keep' | 'skip'
    saveAs?: string
  }): Promise<ImportEnd> {
    const shown = preview.value
    if (!shown) return { ok: false, message: 'No statement is open.' }
    const job = await runJob(
      await window.api.recon.import({
        token: shown.token,
        mapping: { ...mapping.value, columns: { ...shown.mapping.columns, ...(mapping.value.columns ?? {}) } },
        ...options
      })
    )
    if (!('state' in job)) return { ok: false, message: job.message, error: job }
    if (job.state !== 'succeeded' || job.result?.kind !== 'recon-import')
      return { ok: false, message: job.error?.message ?? `The import ${job.state}.` }
    const result = job.result
    if (result.status === 'questions') return { ok: false, message: 'The statement still has questions to answer.' }
    if (result.status === 'same-rows' || !result.fileId)
      return { ok: false, message: `${result.sameRows} of its rows were imported before in another file: choose to keep or skip them.` }
    await load()
    return { ok: true, fileIds: result.fileIds.length > 0 ? result.fileIds : [result.fileId], rows: result.rows, status: result.status }
  }

  async function create(input: {
    name: string
    source: ReconSource
    from: string
    to: string
    fileIds: string[]
    settings: Partial<ReconSettings>
    bulkFileIds?: string[]
    references?: string[]
    /** The account the session is of, for statements that state none. */
    account?: string
  }): Promise<CallResult<SessionInfo>> {
    const answer = await window.api.recon.create(input)
    if (answer.ok) await load()
    return answer
  }

  async function periodOf(fileId: string): Promise<{ from: string; to: string } | null> {
    const answer = await window.api.recon.fileDays({ fileId })
    return answer.ok ? answer.value : null
  }

  /** Runs the matching as a job and waits for it; the answer is the job as it ended. */
  async function run(sessionId: string): Promise<JobInfo | CallError> {
    return runJob(await window.api.recon.run({ sessionId }))
  }

  return {
    sessions,
    files,
    loading: listCall.loading,
    error,
    preview,
    mapping,
    load,
    openFile,
    openDropped,
    openSample,
    locked,
    unlock,
    cancelUnlock,
    remap,
    importPreviewed,
    create,
    run,
    periodOf
  }
})
