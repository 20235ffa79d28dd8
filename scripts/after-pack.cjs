// electron-builder afterPack hook: flips the Electron fuses on the packaged binary with @electron/fuses.
const { join } = require('node:path')
const { flipFuses, FuseV1Options, FuseVersion } = require('@electron/fuses')

/** The fuses every Ledgerline build ships with (test/app/packaging.test.ts reads them back from a binary). */
const LEDGERLINE_FUSES = {
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // The binary cannot be used as a plain Node.js (ELECTRON_RUN_AS_NODE); the service host is a utility process, not that.
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  // No NODE_OPTIONS, no --inspect: nobody injects code through the environment or a debugger port.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // The app loads only from its own app.asar, checked against the integrity hash electron-builder embeds.
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The renderer comes from app://, so file:// needs none of its old privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false
}

/** The Electron binary inside the packaged app, per platform. */
function electronBinary(context) {
  const name = context.packager.appInfo.productFilename
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(context.appOutDir, `${name}.app`)
    case 'win32':
      return join(context.appOutDir, `${name}.exe`)
    default:
      return join(context.appOutDir, context.packager.executableName)
  }
}

async function afterPack(context) {
  const binary = electronBinary(context)
  // arm64 macOS binaries must be re-signed ad hoc after their bytes change.
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === 3
  await flipFuses(binary, { ...LEDGERLINE_FUSES, resetAdHocDarwinSignature })
}

module.exports = afterPack
module.exports.default = afterPack
module.exports.LEDGERLINE_FUSES = LEDGERLINE_FUSES
module.exports.electronBinary = electronBinary
