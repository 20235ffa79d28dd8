// Runs a node script (the ledgerline bin) in this process and, as it exits, says its peak resident memory on stderr: the end-to-end bench's figure for the whole command.
const { resolve } = require('node:path')

const [script, ...args] = process.argv.slice(2)
process.argv = [process.argv[0], resolve(script), ...args]
process.on('exit', () => process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\n`))
require(resolve(script))
