// The host's bulk service against a server that rejects rows in its own words: every failedRequests entry lands on the user's row and column, and API errors are kept, not thrown.
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '../../src/main/api/client'
import { BulkService, locateFailedRequest } from '../../src/main/bulk/service'
import { migrate, MIGRATIONS } from '../../src/main/cache/migrations'
import { sendJson, startFakeServer, type FakeServer } from '../support/fake-server'

let server: FakeServer
let answer: { status: number; body: unknown } = { status: 200, body: {} }
let db: Database.Database
const PROFILE = 'p1'

beforeAll(async () => {
  server = await startFakeServer((req, res) => {
    req.resume()
    req.on('end', () => sendJson(res, answer.status, answer.body))
  })
  db = new Database(':memory:')
  migrate(db, MIGRATIONS)
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values (?, 'Acme', ?, 'test', '2026-01-01T00:00:00Z')").run(
    PROFILE,
    `${server.origin}/v1`
  )
})
afterAll(() => server.close())

const HEADER = 'amount,currency,bank_code,branch_code,account_number,account_name,narration'

describe('failedRequests placed on rows', () => {
  it('maps data rows to the spreadsheet rows of the file as the user has it, and fields of any spelling to the spec column', () => {
    const sourceRows = [2, 3, 5]
    expect(
      locateFailedRequest(
        'transfers',
        { row: 3, field: 'accountNumber', code: 'invalid_account', message: 'No such account', raw: {} },
        sourceRows
      )
    ).toEqual({
      row: 5,
      column: 'account_number',
      code: 'invalid_account',
      message: 'The provider says: No such account',
      severity: 'error'
    })
    expect(locateFailedRequest('plans', { row: 1, field: 'internal_reference', code: null, message: 'Taken', raw: {} }, [2])).toMatchObject(
      { row: 2, column: 'internalReference', code: 'provider_rejected' }
    )
    expect(locateFailedRequest('transfers', { row: 9, field: 'iban', code: 'x', message: 'Bad', raw: {} }, sourceRows)).toMatchObject({
      row: null,
      column: null,
      message: 'The provider says: Bad (data row 9, field iban)'
    })
    expect(
      locateFailedRequest(
        'transfers',
        { row: null, field: null, code: null, message: 'Whole file refused', raw: 'Whole file refused' },
        sourceRows
      )
    ).toMatchObject({ row: null, column: null })
  })

  it('keeps a send the provider rejected rows of, each on its row, with blank rows of the original skipped', async () => {
    const service = new BulkService(db)
    const client = createApiClient({ baseUrl: `${server.origin}/v1`, getKey: () => 'sk_test_abcdef', pacing: false })
    answer = {
      status: 200,
      body: {
        totalRequests: 2,
        failedRequests: [{ row: 2, field: 'bank_code', code: 'invalid_bank_code', message: 'Bank 058 is offline' }]
      }
    }
    const prepared = service.prepare(
      PROFILE,
      'transfers',
      `${HEADER}\n5000,NGN,058,,0123456789,Ada,Pay\n\n6000,NGN,058,,0123456780,Bola,Pay\n`
    )
    const sent = await service.validateTransfers(PROFILE, client, prepared, 'nov.csv', 'multipart')
    expect(sent).toMatchObject({
      accepted: false,
      totalRequests: 2,
      error: null,
      problems: [{ row: 4, column: 'bank_code', code: 'invalid_bank_code', message: 'The provider says: Bank 058 is offline' }]
    })
    // What was sent has no blank row: the provider's data row 2 is the spreadsheet's row 4.
    expect(service.sentContent(PROFILE, sent.id).split('\r\n')).toHaveLength(4)

    answer = { status: 401, body: { error: 'Unauthorized', message: 'invalid_credentials', status: 401 } }
    const refused = await service.validateTransfers(PROFILE, client, prepared, 'nov.csv', 'json')
    expect(refused).toMatchObject({
      accepted: false,
      problems: [],
      error: { code: 'invalid_credentials', message: expect.stringContaining('POST /transfers/bulk/validate') }
    })
    expect(service.history(PROFILE).map((s) => s.accepted)).toEqual([false, false])
  })
})
