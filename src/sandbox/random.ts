// Deterministic hashing and pseudo-random streams: the same seed and index always give the same record.

/** 32-bit mix of any number of integers (murmur3 finaliser over a running hash). */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5
  for (const part of parts) {
    h = Math.imul(h ^ (part | 0), 0x01000193)
    h ^= h >>> 15
    h = Math.imul(h, 0x2c1b3c6d)
    h ^= h >>> 12
    h = Math.imul(h, 0x297a2d39)
    h ^= h >>> 15
  }
  return h >>> 0
}

/** A small fast PRNG (mulberry32) seeded from the parts; returns floats in [0, 1). */
export function stream(...parts: number[]): () => number {
  let state = hash32(...parts)
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T
}

/** Picks by weight: [[value, weight], …]. */
export function weighted<T>(rand: () => number, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((sum, [, w]) => sum + w, 0)
  let r = rand() * total
  for (const [value, w] of table) {
    r -= w
    if (r < 0) return value
  }
  return (table[table.length - 1] as readonly [T, number])[0]
}

export function hex(rand: () => number, length: number): string {
  let out = ''
  while (out.length < length)
    out += Math.floor(rand() * 0x100000000)
      .toString(16)
      .padStart(8, '0')
  return out.slice(0, length)
}

export function digits(rand: () => number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += Math.floor(rand() * 10)
  return out
}

/**
 * A uuid that encodes its index in the last 12 hex digits, so the Sandbox finds record N by id
 * without a table; the other digits come from (seed, kind, mode, index), so ids of other kinds
 * or seeds do not match.
 */
export function indexedUuid(seed: number, kind: number, mode: number, index: number): string {
  const rand = stream(seed, kind, mode, index, 0x75756964)
  const h = hex(rand, 20)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Math.floor(rand() * 4)]}${h.slice(17, 20)}-${index.toString(16).padStart(12, '0')}`
}

export function indexFromUuid(id: string): number | null {
  const match = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-([0-9a-f]{12})$/.exec(id)
  return match ? parseInt(match[1] as string, 16) : null
}
