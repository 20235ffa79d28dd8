// A worker thread that changes a cache's schema over and over (a table created and dropped, each its own commit), as
// another process's migrations do, until the flag it shares with the test is set; then it says how many changes it made.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'

const db = new Database(workerData.file)
db.pragma('busy_timeout = 5000')
const stop = new Int32Array(workerData.stop)
let changes = 0
const change = () => db.exec(`create table churn_${changes % 2} (x); drop table churn_${changes++ % 2}`)
change()
parentPort.postMessage('changing')
while (Atomics.load(stop, 0) === 0) change()
db.close()
parentPort.postMessage(changes)
