// Draws the code as rooms and arrows (a room is a folder of src/main, or src/shared, src/sandbox, src/cli, src/preload, the renderer) and counts the arrows that run against the layers: npm run layers.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'

/** The layers, lowest first: a room may import rooms of its own layer or below, never above. */
export const LAYERS: readonly { name: string; rooms: readonly string[] }[] = [
  { name: 'shared (every process)', rooms: ['shared'] },
  {
    name: 'infrastructure',
    rooms: ['main/(infra)', 'main/files', 'main/secrets', 'main/ipc', 'main/api', 'main/cache', 'main/jobs']
  },
  { name: 'provider and profiles', rooms: ['sandbox', 'main/profiles'] },
  {
    name: 'provider records',
    rooms: ['main/sync', 'main/search', 'main/export', 'main/accounts', 'main/bulk', 'main/app']
  },
  { name: 'reconciliation', rooms: ['main/reconcile'] },
  { name: 'on reconciliation', rooms: ['main/records', 'main/team', 'main/journal'] },
  { name: 'the host (wires every domain)', rooms: ['main/host'] },
  { name: 'entry points', rooms: ['main/shell', 'main/index', 'cli', 'preload', 'renderer'] }
]

/** The room a source file lives in. */
export function roomOf(file: string): string {
  const folder = /^src\/main\/([^/]+)\//.exec(file)
  if (folder) return `main/${folder[1]}`
  const top = /^src\/main\/([^/.]+)(?:\.ts)?$/.exec(file)
  if (top) return top[1] === 'index' ? 'main/index' : 'main/(infra)'
  const other = /^src\/(shared|cli|preload|renderer|sandbox)\//.exec(file)
  return other ? (other[1] as string) : file
}

export interface Arrow {
  from: string
  to: string
  /** Each import that makes the arrow: file → imported module. */
  imports: string[]
}

export interface LayerReport {
  arrows: Arrow[]
  /** Arrows from a room to a room of a higher layer. */
  against: Arrow[]
  /** Arrows that are part of a circle of rooms (possible only within one layer). */
  circles: Arrow[]
  /** Files whose running code imports each other, directly or round about (each circle's files, sorted): one file's job split in two, or two jobs tangled. */
  fileCircles: string[][]
  /** Rooms in no layer. */
  unplaced: string[]
}

const layerOf = new Map(LAYERS.flatMap((layer, i) => layer.rooms.map((room) => [room, i] as const)))

/** The rooms and arrows of these sources (path relative to the project → its text), and those that run against the layers. */
export function layerReport(sources: ReadonlyMap<string, string>): LayerReport {
  const arrows = new Map<string, Arrow>()
  const fileImports = new Map<string, string[]>()
  for (const [file, text] of sources) {
    const from = roomOf(file)
    const imported: string[] = []
    fileImports.set(file, imported)
    for (const [, typeOnly, spec] of text.matchAll(/(?:^|\n)\s*(?:import|export)\s(type\s)?[^'"]*?from\s+'(\.[^']+)'/g)) {
      const target = posix.normalize(posix.join(posix.dirname(file), spec as string))
      // Only what runs makes a circle of files: a type one file names of another is gone once compiled.
      if (!typeOnly) imported.push(...[`${target}.ts`, target, `${target}/index.ts`].filter((f) => sources.has(f)).slice(0, 1))
      const to = roomOf(target)
      if (to === from) continue
      const key = `${from} → ${to}`
      const arrow = arrows.get(key) ?? { from, to, imports: [] }
      arrow.imports.push(`${file} → ${spec}`)
      arrows.set(key, arrow)
    }
  }
  const all = [...arrows.values()].sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1))
  const rooms = new Set(all.flatMap((a) => [a.from, a.to]))
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    from === to || all.some((a) => a.from === from && !seen.has(a.to) && (seen.add(a.to), reaches(a.to, to, seen)))
  return {
    arrows: all,
    against: all.filter((a) => (layerOf.get(a.from) ?? -1) < (layerOf.get(a.to) ?? -1)),
    circles: all.filter((a) => reaches(a.to, a.from)),
    fileCircles: stronglyConnected(fileImports).filter((files) => files.length > 1),
    unplaced: [...rooms].filter((room) => !layerOf.has(room)).sort()
  }
}

/** The strongly connected parts of a graph (Tarjan's algorithm), each sorted, in order of their first file. */
function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const parts: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node) as number)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
    }
    if (low.get(node) === index.get(node)) {
      const part: string[] = []
      let top: string
      do {
        top = stack.pop() as string
        onStack.delete(top)
        part.push(top)
      } while (top !== node)
      parts.push(part.sort())
    }
  }
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node)
  return parts.sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1))
}

/** Every TypeScript and Vue source under src, by its path relative to the project. */
export function projectSources(root: string): Map<string, string> {
  const sources = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (/\.(ts|vue)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) sources.set(path, readFileSync(join(root, path), 'utf8'))
    }
  }
  walk('src')
  return sources
}

if (process.argv[1] && relative(process.argv[1], import.meta.filename) === '') {
  const report = layerReport(projectSources(join(dirname(import.meta.filename), '..')))
  for (const [i, layer] of [...LAYERS.entries()].reverse()) console.log(`${i}  ${layer.name.padEnd(32)} ${layer.rooms.join('  ')}`)
  console.log(
    `\n${report.arrows.length} arrows between rooms; ${report.against.length} run against the layers; ${report.circles.length} in a circle; ${report.fileCircles.length} circles of files.`
  )
  for (const arrow of report.against) console.log(`  against: ${arrow.from} → ${arrow.to} (${arrow.imports.join('; ')})`)
  for (const arrow of report.circles) console.log(`  circle: ${arrow.from} → ${arrow.to} (${arrow.imports.join('; ')})`)
  for (const files of report.fileCircles) console.log(`  files in a circle: ${files.join(' → ')}`)
  if (report.unplaced.length > 0) console.log(`  in no layer: ${report.unplaced.join(', ')}`)
  process.exitCode = report.against.length + report.circles.length + report.fileCircles.length + report.unplaced.length > 0 ? 1 : 0
}
