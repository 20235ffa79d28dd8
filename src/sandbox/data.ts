// The Sandbox's seeded records: realistic, deterministic, and generated on demand from (seed, mode, index).
import { currencyExponent, toMajorString } from '../shared/money'
import { digits, hex, indexedUuid, pick, stream, weighted } from './random'

export type SandboxMode = 'test' | 'live'
const MODE_NO: Record<SandboxMode, number> = { test: 1, live: 2 }
const KIND = { payment: 1, plan: 2, subscription: 3, customer: 4, bulkFile: 5, transfer: 6, account: 7 } as const

/** Newest seeded payment time; older ones step back from here, so data never depends on the wall clock. */
export const SEED_EPOCH_MS = Date.UTC(2026, 9, 31, 23, 0, 0)

type Json = Record<string, unknown>

/** Exact major-unit JSON number for minor units, the way the API speaks (e.g. 1234.5). */
export const major = (minor: number, currency: string): number => Number(toMajorString(minor, currency))

interface CurrencyProfile {
  code: string
  region: string
  weight: number
  /** Typical amount range in minor units. */
  min: number
  max: number
  channels: readonly (readonly [string, number])[]
  local?: { currency: string; rateMilli: number }
}

const CURRENCIES: readonly CurrencyProfile[] = [
  {
    code: 'NGN',
    region: 'NG',
    weight: 50,
    min: 50_000,
    max: 250_000_000,
    channels: [
      ['card', 45],
      ['bank_transfer', 45],
      ['mobile_money', 2],
      ['eft', 0]
    ]
  },
  {
    code: 'GHS',
    region: 'GH',
    weight: 14,
    min: 500,
    max: 5_000_000,
    channels: [
      ['card', 30],
      ['mobile_money', 55],
      ['bank_transfer', 15]
    ]
  },
  {
    code: 'KES',
    region: 'KE',
    weight: 10,
    min: 1_000,
    max: 20_000_000,
    channels: [
      ['mobile_money', 70],
      ['card', 25],
      ['bank_transfer', 5]
    ]
  },
  {
    code: 'ZAR',
    region: 'ZA',
    weight: 8,
    min: 1_000,
    max: 5_000_000,
    channels: [
      ['card', 50],
      ['eft', 45],
      ['bank_transfer', 5]
    ]
  },
  {
    code: 'UGX',
    region: 'UG',
    weight: 4,
    min: 5_000,
    max: 5_000_000,
    channels: [
      ['mobile_money', 80],
      ['card', 20]
    ]
  },
  {
    code: 'XOF',
    region: 'SN',
    weight: 3,
    min: 1_000,
    max: 2_000_000,
    channels: [
      ['mobile_money', 75],
      ['card', 25]
    ]
  },
  {
    code: 'USD',
    region: 'NG',
    weight: 7,
    min: 500,
    max: 500_000,
    channels: [['card', 100]],
    local: { currency: 'NGN', rateMilli: 1_532_450 }
  },
  {
    code: 'EUR',
    region: 'GH',
    weight: 3,
    min: 500,
    max: 300_000,
    channels: [['card', 100]],
    local: { currency: 'GHS', rateMilli: 16_125 }
  },
  {
    code: 'KWD',
    region: 'NG',
    weight: 1,
    min: 1_000,
    max: 200_000,
    channels: [['card', 100]],
    local: { currency: 'NGN', rateMilli: 4_990_000 }
  }
]

const PAYMENT_STATUSES: readonly (readonly [string, number])[] = [
  ['successful', 78],
  ['SUCCESS', 3],
  ['SUCCESSFUL', 1],
  ['pending', 6],
  ['PENDING', 1],
  ['failed', 7],
  ['FAILED', 1],
  ['CANCELLED', 1],
  ['provider_processed', 1],
  ['reversed', 0.3]
]

const FIRST = [
  'Adaeze',
  'Kwame',
  'Amina',
  'Tunde',
  'Ama',
  'Wanjiru',
  'Thabo',
  'Fatou',
  'Chinedu',
  'Efua',
  'Njeri',
  'Sipho',
  'Ngozi',
  'Kofi',
  'Zanele',
  'Musa',
  'Ifeoma',
  'Yaw',
  'Aïssatou',
  'Oluwaseun'
]
const LAST = [
  'Okafor',
  'Mensah',
  'Bello',
  'Adeyemi',
  'Owusu',
  'Kamau',
  'Nkosi',
  'Diop',
  'Eze',
  'Asante',
  'Otieno',
  'Dlamini',
  'Obi',
  'Boateng',
  'Mokoena',
  'Abubakar',
  'Nwosu',
  'Appiah',
  'Ndiaye',
  'Adebayo'
]
const PLAN_NAMES = ['Starter', 'Growth', 'Pro', 'Team', 'Business', 'Enterprise', 'Family', 'Student', 'Premium', 'Basic']
const PLAN_PRODUCTS = [
  'Cloud Storage',
  'Bookkeeping',
  'Gym Access',
  'Meal Box',
  'Tutoring',
  'Streaming',
  'Insurance Cover',
  'Payroll',
  'Data Bundle',
  'Magazine'
]
const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'MONTHLY', 'MONTHLY', 'QUARTERLY', 'BIANNUAL', 'ANNUAL'] as const

export const NGN_BANKS: readonly Json[] = [
  ['044', 'Access Bank', '000014', '044150149'],
  ['023', 'Citibank Nigeria', '000009', '023150005'],
  ['050', 'Ecobank Nigeria', '000010', '050150010'],
  ['070', 'Fidelity Bank', '000007', '070150003'],
  ['011', 'First Bank of Nigeria', '000016', '011151003'],
  ['214', 'First City Monument Bank', '000003', '214150018'],
  ['058', 'Guaranty Trust Bank', '000013', '058152036'],
  ['030', 'Heritage Bank', '000020', '030159992'],
  ['301', 'Jaiz Bank', '000006', '301080020'],
  ['082', 'Keystone Bank', '000002', '082150017'],
  ['076', 'Polaris Bank', '000008', '076151006'],
  ['101', 'Providus Bank', '000023', null],
  ['221', 'Stanbic IBTC Bank', '000012', '221159522'],
  ['068', 'Standard Chartered Bank', '000021', '068150015'],
  ['232', 'Sterling Bank', '000001', '232150016'],
  ['100', 'Suntrust Bank', '000022', null],
  ['032', 'Union Bank of Nigeria', '000018', '032080474'],
  ['033', 'United Bank for Africa', '000004', '033153513'],
  ['215', 'Unity Bank', '000011', '215154097'],
  ['035', 'Wema Bank', '000017', '035150103'],
  ['057', 'Zenith Bank', '000015', '057150013'],
  ['50211', 'Kuda Microfinance Bank', '090267', null],
  ['999', 'Sandbox Test Bank', null, null]
].map(([bankCode, bankName, nipCode, cbnCode]) => {
  const metadata: Json = {}
  if (nipCode) metadata['nipCode'] = nipCode
  if (cbnCode) metadata['cbnCode'] = cbnCode
  return Object.keys(metadata).length > 0 ? { bankCode, bankName, metadata } : { bankCode, bankName }
})

export const GHS_BANKS: readonly Json[] = [
  ['300302', 'Standard Chartered Bank Ghana'],
  ['300303', 'Absa Bank Ghana'],
  ['300304', 'GCB Bank'],
  ['300305', 'National Investment Bank'],
  ['300307', 'Agricultural Development Bank'],
  ['300309', 'Universal Merchant Bank'],
  ['300310', 'Republic Bank Ghana'],
  ['300312', 'Zenith Bank Ghana'],
  ['300313', 'Ecobank Ghana'],
  ['300316', 'First Atlantic Bank'],
  ['300317', 'Prudential Bank'],
  ['300320', 'Stanbic Bank Ghana'],
  ['300325', 'Fidelity Bank Ghana'],
  ['300591', 'MTN Mobile Money'],
  ['300592', 'AirtelTigo Money'],
  ['300999', 'Sandbox Test Bank Ghana']
].map(([bankCode, bankName]) => ({ bankCode, bankName }))

export interface SeedOptions {
  seed: number
  payments: number
  plans: number
  subscriptions: number
  /** Transfer counts of the seeded bulk files. */
  bulkFiles: readonly number[]
}

function personName(rand: () => number): { first: string; last: string; full: string } {
  const first = pick(rand, FIRST)
  const last = pick(rand, LAST)
  return { first, last, full: `${first} ${last}` }
}

function emailFor(name: { first: string; last: string }, n: number): string {
  const ascii = (s: string): string =>
    s
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase()
  return `${ascii(name.first)}.${ascii(name.last)}${n % 97}@example.com`
}

export class SeededData {
  readonly modeNo: number

  constructor(
    readonly options: SeedOptions,
    readonly mode: SandboxMode
  ) {
    this.modeNo = MODE_NO[mode]
  }

  private rand(kind: number, index: number): () => number {
    return stream(this.options.seed, kind, this.modeNo, index)
  }

  planId(index: number): string {
    return indexedUuid(this.options.seed, KIND.plan, this.modeNo, index)
  }

  customerId(index: number): string {
    return indexedUuid(this.options.seed, KIND.customer, this.modeNo, index)
  }

  paymentId(index: number): string {
    return indexedUuid(this.options.seed, KIND.payment, this.modeNo, index)
  }

  subscriptionId(index: number): string {
    return indexedUuid(this.options.seed, KIND.subscription, this.modeNo, index)
  }

  bulkFileId(index: number): string {
    return indexedUuid(this.options.seed, KIND.bulkFile, this.modeNo, index)
  }

  /** The caller's own reference for seeded payment N; parseable back to N. */
  paymentReference(index: number): string {
    return `${this.mode === 'live' ? 'INV' : 'TST'}-${String(index).padStart(7, '0')}`
  }

  paymentIndexFromReference(reference: string): number | null {
    const match = /^(INV|TST)-(\d{7,})$/.exec(reference)
    if (!match || match[1] !== (this.mode === 'live' ? 'INV' : 'TST')) return null
    const index = Number(match[2])
    return index < this.options.payments && this.paymentReference(index) === reference ? index : null
  }

  transferReference(file: number, index: number): string {
    return `PAYOUT-${this.mode === 'live' ? 'L' : 'T'}${file + 1}-${String(index + 1).padStart(5, '0')}`
  }

  transferLocation(reference: string): { file: number; index: number } | null {
    const match = /^PAYOUT-([LT])(\d+)-(\d{5,})$/.exec(reference)
    if (!match || match[1] !== (this.mode === 'live' ? 'L' : 'T')) return null
    const file = Number(match[2]) - 1
    const index = Number(match[3]) - 1
    const count = this.options.bulkFiles[file]
    if (count === undefined || index >= count || this.transferReference(file, index) !== reference) return null
    return { file, index }
  }

  plan(index: number): Json {
    const rand = this.rand(KIND.plan, index)
    const product = pick(rand, PLAN_PRODUCTS)
    const tier = pick(rand, PLAN_NAMES)
    const currency = weighted(rand, [
      ['NGN', 60],
      ['GHS', 20],
      ['KES', 10],
      ['ZAR', 10]
    ] as const)
    const minor = currency === 'NGN' ? (Math.floor(rand() * 200) + 10) * 50_000 : (Math.floor(rand() * 200) + 10) * 500
    const frequency = pick(rand, FREQUENCIES)
    const createdAt = new Date(SEED_EPOCH_MS - (index + 1) * 86_400_000 * 3 - Math.floor(rand() * 86_400_000)).toISOString()
    const subscriptions = Math.floor(rand() * 400)
    const id = this.planId(index)
    const plan: Json = {
      id,
      title: `${product} ${tier}`,
      frequency,
      amount: major(minor, currency),
      currency,
      status: weighted(rand, [
        ['ACTIVE', 85],
        ['INACTIVE', 10],
        ['ARCHIVED', 5]
      ] as const),
      createdAt,
      internalReference: `PLN-${this.mode.toUpperCase()}-${String(index + 1).padStart(4, '0')}`,
      regions: currency === 'NGN' ? ['NG'] : currency === 'GHS' ? ['GH'] : currency === 'KES' ? ['KE'] : ['ZA'],
      subscribers: Math.floor(subscriptions * (0.5 + rand() * 0.5)),
      subscriptions,
      pricingOptions: [{ amount: major(minor, currency), currency }]
    }
    if (rand() < 0.3) {
      plan['trial'] = {
        id: indexedUuid(this.options.seed, 99, this.modeNo, index),
        planId: id,
        periodInDays: pick(rand, [7, 14, 30]),
        pricingList: [{ type: 'trial', amount: 0, currency }]
      }
    }
    return plan
  }

  payment(index: number): Json {
    const rand = this.rand(KIND.payment, index)
    const profile = weighted(
      rand,
      CURRENCIES.map((c) => [c, c.weight] as const)
    )
    const currency = profile.code
    const minor = Math.floor(profile.min + rand() ** 3 * (profile.max - profile.min))
    const channel = weighted(rand, profile.channels)
    let status = weighted(rand, PAYMENT_STATUSES)
    const feeMinor = Math.min(Math.floor(minor * 0.015), currency === 'NGN' ? 200_000 : Number.MAX_SAFE_INTEGER)
    const taxMinor = Math.floor(feeMinor * 0.075)
    const local = profile.local
    const localCurrency = local?.currency ?? currency
    // Rate in thousandths, applied in integers (with each currency's exponent) so local amounts are exact decimals.
    const localMinor = local
      ? Math.floor((minor * local.rateMilli * 10 ** (currencyExponent(localCurrency) - currencyExponent(currency))) / 1000)
      : minor
    const createdAt = new Date(SEED_EPOCH_MS - index * 47_000 - Math.floor(rand() * 40_000)).toISOString()
    const name = personName(rand)
    const payment: Json = {
      id: this.paymentId(index),
      reference: this.paymentReference(index),
      serviceReference: `SRV${hex(rand, 16).toUpperCase()}`,
      amount: major(minor, currency),
      currency,
      localAmount: major(localMinor, localCurrency),
      localCurrency,
      totalFees: major(feeMinor, currency),
      totalTaxAmount: major(taxMinor, currency),
      totalLocalAmount: major(localMinor, localCurrency),
      channel,
      status,
      rate: local ? local.rateMilli / 1000 : 1,
      region: profile.region,
      mode: this.mode.toUpperCase(),
      createdAt,
      metadata: { customerEmail: emailFor(name, index), orderId: `ORD-${100000 + index}` }
    }
    if (channel === 'card') {
      const brand = weighted(rand, [
        ['visa', 45],
        ['mastercard', 40],
        ['verve', 15]
      ] as const)
      const firstSix =
        brand === 'visa'
          ? `4${digits(rand, 5)}`
          : brand === 'mastercard'
            ? `5${1 + Math.floor(rand() * 5)}${digits(rand, 4)}`
            : `506${digits(rand, 3)}`
      payment['card'] = { type: brand, firstSix, lastFour: digits(rand, 4) }
      const authMode = weighted(rand, [
        ['pin', 45],
        ['otp', 20],
        ['3DS', 25],
        ['avs', 5],
        ['noauth', 5]
      ] as const)
      payment['authorization'] = { mode: authMode }
      // Some card payments wait at their PIN step: they are the ones authorize can move along.
      if (currency === 'NGN' && authMode === 'pin' && rand() < 0.1) {
        status = 'pending'
        payment['status'] = status
      }
    } else if (channel === 'bank_transfer') {
      const bank = (currency === 'GHS' ? pick(rand, GHS_BANKS) : pick(rand, NGN_BANKS)) as { bankName: string }
      payment['bankDetails'] = { accountName: name.full, accountNumber: digits(rand, 10), bankName: bank.bankName }
      if (currency === 'NGN' && rand() < 0.2)
        payment['ussd'] = { code: `*${pick(rand, ['737', '901', '919', '822'])}*000*${digits(rand, 4)}#`, paymentCode: digits(rand, 6) }
    } else if (channel === 'mobile_money') {
      const network =
        currency === 'KES'
          ? 'M-PESA'
          : currency === 'GHS'
            ? pick(rand, ['MTN', 'Vodafone', 'AirtelTigo'])
            : pick(rand, ['MTN', 'Airtel', 'Orange'])
      payment['mobileMoney'] = {
        otp: '',
        code: network.slice(0, 3).toUpperCase(),
        name: network,
        phoneNumber: `+${pick(rand, ['233', '254', '256', '221'])}${digits(rand, 9)}`
      }
    }
    if (rand() < 0.2 && this.options.plans > 0) payment['planId'] = this.planId(Math.floor(rand() * this.options.plans))
    return payment
  }

  customer(index: number): Json {
    const rand = this.rand(KIND.customer, index)
    const name = personName(rand)
    return { id: this.customerId(index), email: emailFor(name, index), name: name.full }
  }

  customerCount(): number {
    return Math.max(1, Math.ceil(this.options.subscriptions / 2))
  }

  subscription(index: number): Json {
    const rand = this.rand(KIND.subscription, index)
    const customerIndex = Math.floor(rand() * this.customerCount())
    const customer = this.customer(customerIndex)
    const planIndex = this.options.plans > 0 ? Math.floor(rand() * this.options.plans) : 0
    const plan = this.plan(planIndex)
    const start = SEED_EPOCH_MS - Math.floor(rand() * 400) * 86_400_000
    return {
      id: this.subscriptionId(index),
      customerId: customer['id'],
      planId: plan['id'],
      status: weighted(rand, [
        ['active', 70],
        ['inactive', 8],
        ['cancelled', 12],
        ['failed', 5],
        ['completed', 5]
      ] as const),
      startDate: new Date(start).toISOString(),
      nextPaymentDate: new Date(start + 30 * 86_400_000 * (1 + Math.floor(rand() * 14))).toISOString(),
      createdAt: new Date(start - 3_600_000).toISOString(),
      customer,
      metadata: { source: pick(rand, ['web', 'mobile', 'sales']), seat: String(1 + Math.floor(rand() * 5)) },
      currency: plan['currency'],
      regionName: pick(rand, ['Lagos', 'Accra', 'Nairobi', 'Johannesburg', 'Abuja', 'Kumasi']),
      amount: plan['amount']
    }
  }

  transfer(file: number, index: number): Json {
    const rand = stream(this.options.seed, KIND.transfer, this.modeNo, file, index)
    const ghs = file % 3 === 2
    const currency = ghs ? 'GHS' : 'NGN'
    const bank = (ghs ? pick(rand, GHS_BANKS) : pick(rand, NGN_BANKS)) as { bankCode: string; bankName: string }
    const name = personName(rand)
    const minor = ghs ? (Math.floor(rand() * 4000) + 50) * 100 : (Math.floor(rand() * 5000) + 20) * 1000
    return {
      reference: this.transferReference(file, index),
      servicereference: `BLK${hex(rand, 14).toUpperCase()}`,
      amount: major(minor, currency),
      currency,
      transferMode: 'BULK',
      destination: {
        accountNumber: digits(rand, ghs ? 13 : 10),
        accountName: name.full,
        bankCode: bank.bankCode,
        branchCode: ghs ? digits(rand, 6) : '',
        bankName: bank.bankName
      },
      narrations:
        pick(rand, ['Salary', 'Vendor payment', 'Commission', 'Refund', 'Expense reimbursement']) +
        ` ${new Date(SEED_EPOCH_MS).toISOString().slice(0, 7)}`,
      status: weighted(rand, [
        ['SUCCESSFUL', 70],
        ['successful', 10],
        ['processing', 8],
        ['initiated', 4],
        ['FAILED', 6],
        ['pending', 2]
      ] as const)
    }
  }

  accountNumber(index: number): string {
    return digits(stream(this.options.seed, KIND.account, this.modeNo, index), 10)
  }
}
