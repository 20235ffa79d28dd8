// Starts a Sandbox and a client for it, for contract tests over real loopback HTTP.
import { createApiClient, type ApiClient } from '../../src/main/api/client'
import { ApiError } from '../../src/main/api/errors'
import type { HttpOptions } from '../../src/main/api/http'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server'

export async function sandboxWithClient(
  sandboxOptions: SandboxOptions = {},
  clientOptions: Partial<HttpOptions> = {}
): Promise<{ sandbox: Sandbox; client: ApiClient; clientFor(key: string, extra?: Partial<HttpOptions>): ApiClient }> {
  const sandbox = await startSandbox({ rateLimits: false, payments: 500, ...sandboxOptions })
  const clientFor = (key: string, extra: Partial<HttpOptions> = {}): ApiClient =>
    createApiClient({
      baseUrl: sandbox.baseUrl,
      getKey: () => key,
      pacing: false,
      backoffBaseMs: 5,
      backoffCapMs: 50,
      ...clientOptions,
      ...extra
    })
  return { sandbox, client: clientFor(sandbox.keys.test), clientFor }
}

/** Collects every item of an async page iterator. */
export async function collect<T>(pages: AsyncIterable<{ content: T[] }>): Promise<T[]> {
  const all: T[] = []
  for await (const page of pages) all.push(...page.content)
  return all
}

/** Resolves to the ApiError a promise rejects with (fails the test if it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected the call to fail, but it succeeded')
}
