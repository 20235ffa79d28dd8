// One mode's (test or live) Sandbox state: seeded records generated on demand plus what callers created or changed.
import { randomUUID } from 'node:crypto'
import { normalizePaymentStatus } from '../shared/api/assumptions'
import { parseMajor } from '../shared/money'
import { GHS_BANKS, major, NGN_BANKS, SeededData, type SandboxMode, type SeedOptions } from './data'
import { indexFromUuid, indexedUuid } from './random'
import { PAYMENT_LIST_ONLY, strictPayment } from './strict'

type Json = Record<string, unknown>

export interface PaymentQuery {
  paymentId?: string
  reference?: string
  status?: string
  channel?: string
  provider?: string
}

export interface PageSlice {
  content: Json[]
  total: number
}

export class ModeState {
  readonly data: SeededData
  /** Payments made in this run (funds simulator), oldest first; listed before seeded ones, newest first. */
  private readonly created: Json[] = []
  /** Seeded payments changed by authorize, by id. */
  private readonly changedPayments = new Map<string, Json>()
  private readonly createdPlans = new Map<string, Json>()
  private readonly changedPlans = new Map<string, Json>()
  private readonly usedPlanReferences = new Set<string>()
  readonly virtualAccounts = new Map<string, Json>()
  /** Bulk transfer files submitted in this run (as the provider's dashboard takes them), by id. */
  private readonly submittedBulkFiles = new Map<string, Json[]>()
  private readonly submittedTransfers = new Map<string, Json>()
  private readonly filterCache = new Map<string, Int32Array>()
  private planCounter = 0
  private accountCounter = 0

  constructor(
    options: SeedOptions,
    readonly mode: SandboxMode,
    /** Strict-spec mode: payments carry only the spec's fields and statuses (see strict.ts). */
    readonly strict = false
  ) {
    this.data = new SeededData(options, mode)
  }

  get seeded(): SeedOptions {
    return this.data.options
  }

  // ---- payments

  seededPayment(index: number): Json {
    const changed = this.changedPayments.get(this.data.paymentId(index))
    if (changed) return changed
    const payment = this.data.payment(index)
    return this.strict ? strictPayment(payment) : payment
  }

  private matches(payment: Json, q: PaymentQuery): boolean {
    if (q.status && normalizePaymentStatus(payment['status']) !== q.status) return false
    if (q.channel && payment['channel'] !== q.channel) return false
    if (q.provider) {
      const wanted = q.provider.toLowerCase()
      const card = (payment['card'] as Json | undefined)?.['type']
      const momo = (payment['mobileMoney'] as Json | undefined)?.['name']
      const bank = (payment['bankDetails'] as Json | undefined)?.['bankName']
      if (![card, momo, bank].some((v) => typeof v === 'string' && v.toLowerCase() === wanted)) return false
    }
    return true
  }

  /** Indices of seeded payments matching status/channel/provider, computed once per filter. */
  private seededMatches(q: PaymentQuery): Int32Array {
    const key = JSON.stringify([q.status, q.channel, q.provider])
    let hit = this.filterCache.get(key)
    if (!hit) {
      const found: number[] = []
      for (let i = 0; i < this.seeded.payments; i++) if (this.matches(this.seededPayment(i), q)) found.push(i)
      hit = Int32Array.from(found)
      this.filterCache.set(key, hit)
    }
    return hit
  }

  findPaymentById(id: string): Json | null {
    const made = this.created.find((p) => p['id'] === id)
    if (made) return made
    const index = indexFromUuid(id)
    if (index === null || index >= this.seeded.payments || this.data.paymentId(index) !== id) return null
    return this.seededPayment(index)
  }

  findPaymentByReference(reference: string): Json | null {
    const made = this.created.find((p) => p['reference'] === reference)
    if (made) return made
    const index = this.data.paymentIndexFromReference(reference)
    return index === null ? null : this.seededPayment(index)
  }

  listPayments(q: PaymentQuery, page: number, size: number): PageSlice {
    if (q.paymentId !== undefined || q.reference !== undefined) {
      const byId = q.paymentId !== undefined ? this.findPaymentById(q.paymentId) : null
      const byRef = q.reference !== undefined ? this.findPaymentByReference(q.reference) : null
      const candidates =
        q.paymentId !== undefined && q.reference !== undefined
          ? byId && byId === byRef
            ? [byId]
            : []
          : [byId ?? byRef].filter((p): p is Json => p !== null)
      const all = candidates.filter((p) => this.matches(p, q))
      return { content: page === 0 ? all.slice(0, size) : [], total: all.length }
    }
    const filtered = Boolean(q.status || q.channel || q.provider)
    const created = [...this.created].reverse().filter((p) => !filtered || this.matches(p, q))
    const seededIndices = filtered ? this.seededMatches(q) : null
    const total = created.length + (seededIndices ? seededIndices.length : this.seeded.payments)
    const start = page * size
    const content: Json[] = []
    for (let position = start; position < Math.min(total, start + size); position++) {
      if (position < created.length) content.push(created[position] as Json)
      else {
        const n = position - created.length
        content.push(this.seededPayment(seededIndices ? (seededIndices[n] as number) : n))
      }
    }
    return { content, total }
  }

  /** The authorize response shape: shared fields plus providerMessage, without list-only fields. */
  static authorizeShape(payment: Json): Json {
    const out: Json = {}
    for (const [key, value] of Object.entries(payment)) if (!(PAYMENT_LIST_ONLY as readonly string[]).includes(key)) out[key] = value
    return out
  }

  /** PIN → waiting for OTP; OTP → successful. Returns null when the step does not apply. */
  authorize(reference: string, auth: Json): { payment: Json } | { error: string; title: string } | null {
    const payment = this.findPaymentByReference(reference)
    if (!payment) return null
    const status = normalizePaymentStatus(payment['status'])
    const step = ((payment['authorization'] as Json | undefined)?.['mode'] as string | undefined) ?? ''
    if (status !== 'pending')
      return { error: 'invalid_state', title: `Payment is ${String(payment['status'])}, not awaiting authorization` }
    let next: Json
    if (step === 'pin') {
      if (typeof auth['pin'] !== 'string' || !/^\d{4}$/.test(auth['pin']))
        return { error: 'missing_parameter', title: 'authorization.pin (4 digits) is required' }
      next = { ...payment, status: 'pending', authorization: { mode: 'otp' }, providerMessage: 'Kindly enter the OTP sent to 234*******89' }
    } else if (step === 'otp') {
      if (typeof auth['otp'] !== 'string' || !/^\d{4,8}$/.test(auth['otp']))
        return { error: 'missing_parameter', title: 'authorization.otp is required' }
      next = { ...payment, status: 'successful', authorization: { mode: 'otp' }, providerMessage: 'Approved by financial institution' }
    } else {
      return { error: 'invalid_state', title: `Payment needs a ${step || 'different'} step, not PIN or OTP` }
    }
    this.replacePayment(payment, this.strict ? strictPayment(next) : next)
    return { payment: next }
  }

  /** Moves a payment to another status, as the provider would when it settles (tests and the control endpoint use it). */
  setPaymentStatus(id: string, status: string): boolean {
    const payment = this.findPaymentById(id)
    if (!payment) return false
    this.replacePayment(payment, { ...payment, status })
    return true
  }

  /** New payments made now, newest last, shaped like seeded ones (as if customers paid while the app was closed). */
  addNewPayments(count: number, at = Date.now()): Json[] {
    const made: Json[] = []
    for (let i = 0; i < count; i++) {
      const n = this.created.length
      const template = this.data.payment(n % Math.max(1, this.seeded.payments))
      const payment: Json = {
        ...template,
        id: this.newPaymentId(),
        reference: `NEW-${this.mode.toUpperCase()}-${String(n).padStart(6, '0')}`,
        createdAt: new Date(at + i).toISOString()
      }
      this.addPayment(payment)
      made.push(payment)
    }
    return made
  }

  private replacePayment(before: Json, after: Json): void {
    const at = this.created.indexOf(before)
    if (at >= 0) this.created[at] = after
    else this.changedPayments.set(after['id'] as string, after)
    this.filterCache.clear()
  }

  addPayment(payment: Json): void {
    this.created.push(this.strict ? strictPayment(payment) : payment)
    this.filterCache.clear()
  }

  newPaymentId(): string {
    return indexedUuid(this.seeded.seed, 11, this.data.modeNo, this.created.length)
  }

  // ---- plans

  plan(id: string): Json | null {
    const changed = this.changedPlans.get(id) ?? this.createdPlans.get(id)
    if (changed) return changed
    const index = indexFromUuid(id)
    if (index === null || index >= this.seeded.plans || this.data.planId(index) !== id) return null
    return this.data.plan(index)
  }

  savePlan(plan: Json): void {
    const id = plan['id'] as string
    if (this.createdPlans.has(id)) this.createdPlans.set(id, plan)
    else this.changedPlans.set(id, plan)
  }

  planReferenceInUse(reference: string): boolean {
    if (this.usedPlanReferences.has(reference)) return true
    const match = /^PLN-(TEST|LIVE)-(\d{4,})$/.exec(reference)
    return match !== null && match[1] === this.mode.toUpperCase() && Number(match[2]) >= 1 && Number(match[2]) <= this.seeded.plans
  }

  createPlan(fields: Json): Json {
    const id = indexedUuid(this.seeded.seed, 12, this.data.modeNo, this.planCounter++)
    const plan: Json = { id, ...fields, status: 'ACTIVE', createdAt: new Date().toISOString(), subscribers: 0, subscriptions: 0 }
    this.createdPlans.set(id, plan)
    this.usedPlanReferences.add(fields['internalReference'] as string)
    return plan
  }

  // ---- subscriptions

  listSubscriptions(customerId: string | undefined, email: string | undefined, page: number, size: number): PageSlice {
    const all: Json[] = []
    for (let i = 0; i < this.seeded.subscriptions; i++) {
      const s = this.data.subscription(i)
      if (customerId && s['customerId'] !== customerId) continue
      if (email && ((s['customer'] as Json)['email'] as string).toLowerCase() !== email.toLowerCase()) continue
      all.push(s)
    }
    return { content: all.slice(page * size, page * size + size), total: all.length }
  }

  // ---- bulk transfers

  /**
   * Takes a bulk transfer file as the provider's dashboard would once the merchant submits it, and
   * gives it a bulk file id. Each row becomes a transfer that is already final, so a sync shows the
   * round trip at once: successful, except a row whose account number ends in 99, which fails (a
   * documented Sandbox rule, so a retry file can be tried).
   */
  submitBulkFile(rows: Record<string, string>[]): string {
    const number = this.submittedBulkFiles.size + 1
    const id = randomUUID()
    const transfers = rows.map((row, i): Json => {
      const account = row['account_number'] ?? ''
      const failed = account.endsWith('99')
      const reference = `SBX-${this.mode === 'live' ? 'L' : 'T'}${number}-${String(i + 1).padStart(5, '0')}`
      const transfer: Json = {
        reference,
        servicereference: `BLK${id.replaceAll('-', '').slice(0, 8).toUpperCase()}${String(i + 1).padStart(6, '0')}`,
        amount: major(parseMajor(row['amount'] ?? '', row['currency'] ?? ''), row['currency'] ?? ''),
        currency: row['currency'] ?? '',
        transferMode: 'BULK',
        destination: {
          accountNumber: account,
          accountName: row['account_name'] ?? '',
          bankCode: row['bank_code'] ?? '',
          branchCode: row['branch_code'] ?? '',
          bankName: this.bankName(row['currency'] ?? '', row['bank_code'] ?? '')
        },
        narrations: row['narration'] ?? '',
        status: failed ? 'FAILED' : 'SUCCESSFUL',
        ...(failed && !this.strict ? { message: 'Beneficiary account could not be credited' } : {})
      }
      this.submittedTransfers.set(reference, transfer)
      return transfer
    })
    this.submittedBulkFiles.set(id, transfers)
    return id
  }

  private bankName(currency: string, code: string): string {
    const banks = currency === 'GHS' ? GHS_BANKS : NGN_BANKS
    return (banks.find((b) => b['bankCode'] === code)?.['bankName'] as string | undefined) ?? ''
  }

  /** The transfers of a bulk file submitted in this run, a page at a time; null when there is no such file. */
  listSubmittedBulkTransfers(id: string, page: number, size: number): PageSlice | null {
    const transfers = this.submittedBulkFiles.get(id)
    return transfers ? { content: transfers.slice(page * size, page * size + size), total: transfers.length } : null
  }

  bulkFileIndex(id: string): number | null {
    const index = indexFromUuid(id)
    return index !== null && index < this.seeded.bulkFiles.length && this.data.bulkFileId(index) === id ? index : null
  }

  listBulkTransfers(file: number, page: number, size: number): PageSlice {
    const total = this.seeded.bulkFiles[file] ?? 0
    const content: Json[] = []
    for (let i = page * size; i < Math.min(total, page * size + size); i++) content.push(this.data.transfer(file, i))
    return { content, total }
  }

  transferByReference(reference: string): Json | null {
    const submitted = this.submittedTransfers.get(reference)
    if (submitted) return submitted
    const at = this.data.transferLocation(reference)
    return at ? this.data.transfer(at.file, at.index) : null
  }

  // ---- banks and virtual accounts

  banks(currency: 'NGN' | 'GHS'): readonly Json[] {
    return currency === 'NGN' ? NGN_BANKS : GHS_BANKS
  }

  newAccountNumber(): string {
    return this.data.accountNumber(this.accountCounter++)
  }
}
