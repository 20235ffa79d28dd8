// Open records and lines by currency and direction, each lane in day order: a match window is a binary search away.

export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** The first position in `lane` (sorted by `day`) whose day is `lo` or later. */
export function windowStart(lane: readonly number[], day: ArrayLike<number>, lo: number): number {
  let a = 0
  let b = lane.length
  while (a < b) {
    const m = (a + b) >> 1
    if ((day[lane[m] as number] as number) < lo) a = m + 1
    else b = m
  }
  return a
}

/** Entries of `lane` (sorted by `day`) whose day lies in [lo, hi], at most `limit`. */
export function between(lane: readonly number[], day: ArrayLike<number>, lo: number, hi: number, limit: number): number[] {
  const out: number[] = []
  for (let k = windowStart(lane, day, lo); k < lane.length && out.length < limit; k++) {
    const i = lane[k] as number
    if ((day[i] as number) > hi) break
    out.push(i)
  }
  return out
}
