// Asks for a secret on the terminal without echoing it; refuses when there is no terminal to ask on.
import { AppError } from '../main/errors'

export async function readSecret(question: string): Promise<string> {
  const input = process.stdin
  if (!input.isTTY) {
    throw new AppError('no_key', 'No key given: set LEDGERLINE_API_KEY, or run this in a terminal to be asked for it.')
  }
  process.stderr.write(question)
  input.setRawMode(true)
  input.resume()
  input.setEncoding('utf8')
  return new Promise<string>((resolve, reject) => {
    let value = ''
    const finish = (error?: Error): void => {
      input.setRawMode(false)
      input.pause()
      input.off('data', onData)
      process.stderr.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish()
        if (ch === '\u0003') return finish(new AppError('cancelled', 'Cancelled.'))
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1)
        else value += ch
      }
    }
    input.on('data', onData)
  })
}
