// Installers: AppImage and deb (Linux), NSIS (Windows), dmg (macOS). `npm run dist` builds them for the machine it runs on;
// it needs the Electron download, so it cannot run on the project's offline build machines (test/app/packaging.test.ts checks this file).
module.exports = {
  appId: 'app.ledgerline.desktop',
  // The same name as package.json's productName: Electron's data folder and the CLI's (src/main/app/paths.ts) are one folder.
  productName: 'Ledgerline',
  directories: { output: 'release', buildResources: 'resources' },
  files: ['out/**', 'package.json', '!**/*.map', '!node_modules/.ledgerline-electron/**'],
  asar: true,
  // Native modules cannot load from inside app.asar: better-sqlite3 (rebuilt for Electron by electron-builder, found by
  // better-sqlite3 itself beside the archive) and keytar stay unpacked in app.asar.unpacked.
  asarUnpack: ['**/node_modules/better-sqlite3/**/*.node', '**/node_modules/keytar/**/*.node'],
  npmRebuild: true,
  // Electron fuses are flipped here, on the packaged binary, before signing.
  afterPack: './scripts/after-pack.cjs',
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    synopsis: 'Reconciliation for accountants'
  },
  deb: {
    // keytar needs libsecret and a Secret Service at run time.
    depends: ['libsecret-1-0', 'gnome-keyring | kwalletmanager | keepassxc']
  },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  mac: { target: ['dmg'], category: 'public.app-category.finance', hardenedRuntime: true },
  dmg: { title: 'Ledgerline' }
}
