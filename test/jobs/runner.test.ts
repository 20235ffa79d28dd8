// The job runner: ids, progress and finished events, cancel by id, a list for a reloaded window, one job of a kind per profile.
import { describe, expect, it } from 'vitest'
import { createEventEmitter } from '../../src/main/ipc/events'
import { JobRunner } from '../../src/main/jobs/runner'
import { AppError } from '../../src/main/errors'
import type { JobInfo } from '../../src/shared/ipc/contract'

function runner(): { jobs: JobRunner; events: { name: string; job: JobInfo }[] } {
  const events: { name: string; job: JobInfo }[] = []
  // The real emitter: every payload is checked against the contract before it goes anywhere.
  const emitter = createEventEmitter((_channel, name, payload) => events.push({ name, job: payload as JobInfo }))
  return { jobs: new JobRunner(emitter), events }
}

const acme = { id: 'p-acme', name: 'Acme' }
const globex = { id: 'p-globex', name: 'Globex' }

/** A job that runs until released (or cancelled), reporting progress as told. */
function gate(): { release(): void; run: (job: { signal: AbortSignal }) => Promise<void> } {
  let release = (): void => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  return {
    release: () => release(),
    run: (job) =>
      job.signal.aborted
        ? Promise.reject(new Error('aborted'))
        : Promise.race([
            released,
            new Promise<void>((_, reject) => job.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
          ])
  }
}

describe('JobRunner', () => {
  it('runs a job with an id, sends progress and one finished event with the result', async () => {
    const { jobs, events } = runner()
    const started = jobs.start({
      kind: 'export',
      profile: acme,
      title: 'Export of payments',
      run: async (job) => {
        job.progress({ phase: 'writing', done: 5, total: 10 }, true)
        return { kind: 'export' as const, file: '/tmp/x.csv', rows: 10 }
      }
    })
    expect(started).toMatchObject({ kind: 'export', profileId: 'p-acme', profileName: 'Acme', state: 'running' })
    const done = await jobs.settled(started.id)
    expect(done).toMatchObject({ id: started.id, state: 'succeeded', result: { kind: 'export', rows: 10 }, error: null })
    expect(events.filter((e) => e.name === 'job:progress').some((e) => e.job.progress?.done === 5 && e.job.progress.total === 10)).toBe(
      true
    )
    expect(events.filter((e) => e.name === 'job:finished')).toHaveLength(1)
  })

  it('allows one job of a kind per profile, and other kinds or other profiles alongside', async () => {
    const { jobs } = runner()
    const first = gate()
    const sync = jobs.start({
      kind: 'sync',
      profile: acme,
      title: 'Sync of "Acme"',
      run: async (job) => (await first.run(job), { kind: 'profile-remove' as const, removed: 'x' })
    })
    expect(() =>
      jobs.start({ kind: 'sync', profile: acme, title: 'again', run: async () => ({ kind: 'profile-remove' as const, removed: 'x' }) })
    ).toThrow(expect.objectContaining({ code: 'job_running', details: { jobId: sync.id } }))
    const other = jobs.start({
      kind: 'sync',
      profile: globex,
      title: 'Sync of "Globex"',
      run: async () => ({ kind: 'profile-remove' as const, removed: 'x' })
    })
    const exportJob = jobs.start({
      kind: 'export',
      profile: acme,
      title: 'Export',
      run: async () => ({ kind: 'export' as const, file: 'f', rows: 0 })
    })
    await jobs.settled(other.id)
    await jobs.settled(exportJob.id)
    expect(jobs.runningFor('p-acme', 'sync')?.id).toBe(sync.id)
    first.release()
    await jobs.settled(sync.id)
    expect(jobs.runningFor('p-acme')).toBeNull()
  })

  it('cancels by id, even before the work began: the job ends as cancelled; unknown ids are not cancelled', async () => {
    const { jobs, events } = runner()
    const blocked = gate()
    const job = jobs.start({
      kind: 'sync',
      profile: acme,
      title: 'Sync',
      run: async (control) => (await blocked.run(control), { kind: 'profile-remove' as const, removed: 'x' })
    })
    expect(jobs.list().map((j) => [j.id, j.state])).toEqual([[job.id, 'running']])
    expect(jobs.cancel('no-such-job')).toBe(false)
    expect(jobs.cancel(job.id)).toBe(true)
    const done = await jobs.settled(job.id)
    expect(done).toMatchObject({ state: 'cancelled', error: { code: 'cancelled' } })
    expect(events.at(-1)).toMatchObject({ name: 'job:finished', job: { id: job.id, state: 'cancelled' } })
    expect(jobs.list()[0]).toMatchObject({ id: job.id, state: 'cancelled' })
  })

  it('reports a failure with its code, and an unexpected one without its details', async () => {
    const { jobs } = runner()
    const known = jobs.start({
      kind: 'sync',
      profile: acme,
      title: 'Sync',
      run: async () => Promise.reject(new AppError('no_key', 'No key is stored for "Acme".'))
    })
    const unknown = jobs.start({
      kind: 'export',
      profile: acme,
      title: 'Export',
      run: async () => Promise.reject(new Error('disk on fire at /secret/path'))
    })
    expect(await jobs.settled(known.id)).toMatchObject({
      state: 'failed',
      error: { code: 'no_key', message: 'No key is stored for "Acme".' }
    })
    const failed = await jobs.settled(unknown.id)
    expect(failed).toMatchObject({ state: 'failed', error: { code: 'internal' } })
    expect(JSON.stringify(failed)).not.toContain('disk on fire')
  })

  it('keeps the profile a job started with, whatever is in use later, and lists running jobs first', async () => {
    const { jobs } = runner()
    const blocked = gate()
    const running = jobs.start({
      kind: 'sync',
      profile: globex,
      title: 'Sync',
      run: async (control) => (await blocked.run(control), { kind: 'profile-remove' as const, removed: 'x' })
    })
    const done = jobs.start({
      kind: 'export',
      profile: acme,
      title: 'Export',
      run: async () => ({ kind: 'export' as const, file: 'f', rows: 1 })
    })
    await jobs.settled(done.id)
    expect(jobs.list().map((j) => [j.profileId, j.state])).toEqual([
      ['p-globex', 'running'],
      ['p-acme', 'succeeded']
    ])
    blocked.release()
    expect(await jobs.settled(running.id)).toMatchObject({ profileId: 'p-globex', state: 'succeeded' })
  })

  it('sends progress at most every 200 ms unless forced', async () => {
    let now = 1_000
    const events: string[] = []
    const jobs = new JobRunner(
      createEventEmitter((_c, name) => events.push(name)),
      undefined,
      () => now
    )
    const job = jobs.start({
      kind: 'export',
      profile: acme,
      title: 'Export',
      run: async (control) => {
        for (let i = 1; i <= 10; i++) {
          now += 50
          control.progress({ phase: 'writing', done: i, total: 10 })
        }
        control.progress({ phase: 'done', done: 10, total: 10 }, true)
        return { kind: 'export' as const, file: 'f', rows: 10 }
      }
    })
    await jobs.settled(job.id)
    // 1 at start; of the ten reports 50 ms apart, the first and then one per 200 ms (3); the forced one.
    expect(events.filter((e) => e === 'job:progress').length).toBe(5)
    expect(events.at(-1)).toBe('job:finished')
  })

  it('sends the latest progress held back by the interval once it is up, even when the job then waits', async () => {
    const sent: (number | undefined)[] = []
    const jobs = new JobRunner(
      createEventEmitter((_c, name, payload) => name === 'job:progress' && sent.push((payload as JobInfo).progress?.done))
    )
    let release = (): void => undefined
    const job = jobs.start({
      kind: 'export',
      profile: acme,
      title: 'Export',
      run: async (control) => {
        control.progress({ phase: 'writing', done: 1, total: 10 })
        control.progress({ phase: 'writing', done: 2, total: 10 })
        // Waits (a held request) with no further report: the window must still learn of the second.
        await new Promise<void>((resolve) => (release = resolve))
        return { kind: 'export' as const, file: 'f', rows: 2 }
      }
    })
    await expect.poll(() => sent.at(-1)).toBe(2)
    expect(sent).toEqual([undefined, 1, 2])
    release()
    await jobs.settled(job.id)
  })
})
