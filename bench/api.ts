// API throughput figures, each with its ratio to a raw loopback HTTP baseline measured in the same run.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApiClient } from '../src/main/api/client'
import { startSandbox } from '../src/sandbox/server'

const PAYMENTS = 200_000
const PAGES = Number(process.env['BENCH_PAGES'] ?? 1500)
const WARMUP_PAGES = 100

interface Figure {
  name: string
  records: number
  seconds: number
}

const rate = (f: Figure): number => f.records / f.seconds
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

async function timed(name: string, run: () => Promise<number>): Promise<Figure> {
  const started = process.hrtime.bigint()
  const records = await run()
  return { name, records, seconds: Number(process.hrtime.bigint() - started) / 1e9 }
}

export async function apiBench(): Promise<void> {
  const sandbox = await startSandbox({ payments: PAYMENTS, rateLimits: false })
  const key = sandbox.keys.test
  const pageUrl = (page: number): string => `${sandbox.baseUrl}/payments?page=${page}&size=50`
  const auth = { headers: { Authorization: `Bearer ${key}` } }

  // The baseline serves a real Sandbox page, built once, from a minimal Node server.
  const sample = await (await fetch(pageUrl(0), auth)).text()
  const baseline = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(sample) })
    res.end(sample)
  })
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve))
  const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/v1/payments`
  const perPage = (JSON.parse(sample) as { content: unknown[] }).content.length

  const client = createApiClient({ baseUrl: sandbox.baseUrl, getKey: () => key, pacing: false })
  const rawLoop = async (url: (page: number) => string, pages: number): Promise<number> => {
    let records = 0
    for (let page = 0; page < pages; page++) {
      const body = await (await fetch(url(page), auth)).text()
      records += (JSON.parse(body) as { content: unknown[] }).content.length
    }
    return records
  }
  const clientLoop = async (pages: number): Promise<number> => {
    let records = 0
    let seen = 0
    for await (const page of client.paymentPages({}, { size: 50 })) {
      records += page.content.length
      if (++seen >= pages) break
    }
    return records
  }

  // Warm up every path (JIT, sockets) before measuring.
  await rawLoop(() => baselineUrl, WARMUP_PAGES)
  await rawLoop(pageUrl, WARMUP_PAGES)
  await clientLoop(WARMUP_PAGES)

  const base = await timed('raw loopback HTTP baseline (pre-built page, fetch + JSON.parse)', () => rawLoop(() => baselineUrl, PAGES))
  const serving = await timed('Sandbox serving rate (fetch + JSON.parse, pages generated on demand)', () => rawLoop(pageUrl, PAGES))
  const clientFigure = await timed('API client page fetch (paced off, schema-checked, page iterator)', () => clientLoop(PAGES))

  console.log(
    `API — ${PAGES} pages of ${perPage} payments each, one request in flight, ${PAYMENTS.toLocaleString('en-US')} seeded payments`
  )
  console.log(`node ${process.version}, ${process.platform}-${process.arch}\n`)
  for (const figure of [base, serving, clientFigure]) {
    const ratio = figure === base ? '' : `   ratio to baseline: ${(rate(figure) / rate(base)).toFixed(2)}`
    console.log(`${figure.name.padEnd(72)} ${fmt(rate(figure)).padStart(10)} records/s  (${figure.seconds.toFixed(2)} s)${ratio}`)
  }
  await sandbox.close()
  await new Promise<void>((resolve) => baseline.close(() => resolve()))
}
