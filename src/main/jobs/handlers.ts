// job:* calls: list running and recent jobs, cancel one by id.
import { AppError } from '../errors'
import type { HandlerMap } from '../ipc/router'
import type { JobRunner } from './runner'

export function jobHandlers(ctx: { jobs: JobRunner }): HandlerMap {
  return {
    'job:list': () => ctx.jobs.list(),
    'job:cancel': ({ id }) => {
      if (ctx.jobs.cancel(id)) return { cancelled: true }
      if (ctx.jobs.list().some((j) => j.id === id)) return { cancelled: false }
      throw new AppError('unknown_job', `No job with id "${id.slice(0, 80)}" is known; it may have finished before the host restarted.`)
    }
  }
}
