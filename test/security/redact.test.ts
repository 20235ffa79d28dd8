// Secrets never survive into text that is logged or shown.
import { describe, expect, it } from 'vitest'
import { redactSecrets } from '../../src/main/redact'

describe('redactSecrets', () => {
  it('removes provider keys and bearer tokens wherever they appear', () => {
    const text = 'GET /v1/payments Authorization: Bearer sk_live_Ab12_cd-34 failed; key=pk_test_XYZ987; token sk_test_1'
    const out = redactSecrets(text)
    expect(out).not.toMatch(/sk_live_Ab12|pk_test_XYZ987|sk_test_1/)
    expect(out).toContain('[redacted]')
    expect(out).toContain('GET /v1/payments')
  })

  it('removes explicitly named secrets of any format', () => {
    expect(redactSecrets('token=opaque-secret-value!', ['opaque-secret-value'])).toBe('token=[redacted]!')
  })
})
