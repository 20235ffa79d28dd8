// window.api as the preload builds it, and the events main sends: named, typed, and never throwing raw errors.
import { describe, expect, it, vi } from 'vitest'
import { createEventEmitter } from '../../src/main/ipc/events'
import { createApi } from '../../src/preload/api'
import { callChannel, callNames, eventChannel, eventNames } from '../../src/shared/ipc/contract'

describe('createApi', () => {
  it('exposes exactly one method per contract call, grouped by domain, and nothing generic', async () => {
    const invoke = vi.fn(async (name: string) => ({ ok: true, value: name }))
    const api = createApi(callNames, eventNames, { invoke, subscribe: () => () => {} }) as unknown as Record<string, unknown>
    const methods = Object.entries(api)
      .filter(([key]) => key !== 'on')
      .flatMap(([domain, group]) => Object.keys(group as object).map((action) => `${domain}:${action}`))
    expect(methods.sort()).toEqual([...callNames].sort())
    expect(api).not.toHaveProperty('invoke')
    expect(api).not.toHaveProperty('send')
    expect(Object.isFrozen(api)).toBe(true)
    const typed = api as unknown as { app: { info(): Promise<unknown> } }
    await expect(typed.app.info()).resolves.toEqual({ ok: true, value: 'app:info' })
    expect(invoke).toHaveBeenCalledWith('app:info', undefined)
  })

  it('turns a transport failure into an IPC_FAILED result instead of a thrown error', async () => {
    const api = createApi(callNames, eventNames, {
      invoke: () => {
        throw new Error('channel closed')
      },
      subscribe: () => () => {}
    })
    await expect(api.app.info()).resolves.toMatchObject({ ok: false, error: { code: 'IPC_FAILED' } })
  })

  it('subscribes only to events in the contract', () => {
    const subscribe = vi.fn(() => () => {})
    const api = createApi(callNames, eventNames, { invoke: async () => null, subscribe })
    const stop = api.on('app:notice', () => {})
    expect(subscribe).toHaveBeenCalledWith('app:notice', expect.any(Function))
    expect(typeof stop).toBe('function')
    expect(() => (api.on as (e: string, l: () => void) => void)('ledgerline:anything', () => {})).toThrow(/Unknown event/)
  })
})

describe('channels and events', () => {
  it('prefixes every channel with the app name', () => {
    expect(callChannel('app:info')).toBe('ledgerline:call:app:info')
    expect(eventChannel('app:notice')).toBe('ledgerline:event:app:notice')
  })

  it('validates an event payload before it leaves main', () => {
    const sink = vi.fn()
    const emitter = createEventEmitter(sink)
    emitter.emit('app:notice', { level: 'info', message: 'Sync finished' })
    expect(sink).toHaveBeenCalledWith('ledgerline:event:app:notice', 'app:notice', { level: 'info', message: 'Sync finished' })
    expect(() => emitter.emit('app:notice', { level: 'shout', message: 'x' } as never)).toThrow()
    expect(() => emitter.emit('app:notice', { level: 'info', message: 'x', secret: 'sk_live_1' } as never)).toThrow()
    expect(sink).toHaveBeenCalledOnce()
  })
})
