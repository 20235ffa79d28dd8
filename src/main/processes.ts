// Whether a process of this computer is still running, by its id: how a file or a cache left by a process that died (kill -9, a power cut) is told from one still in use.
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
