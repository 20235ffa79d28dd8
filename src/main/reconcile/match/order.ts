// The result's order: every item by its lead (its first line, else its first record) by content, so the same inputs always give the same order.
import { compareText } from './state'

/**
 * The order of `count` items by their leads (a line's index, or −1 − a record's index): by the lead's
 * day, then lines before records, then amount, then id. Items are counted into days first, then each
 * day is sorted on typed arrays (a million items sort in well under a second).
 */
export function inContentOrder(
  count: number,
  leads: Int32Array,
  fDay: Int32Array,
  fAmount: Float64Array,
  pDay: Int32Array,
  pAmount: Float64Array,
  idOf: (lead: number) => string
): Int32Array {
  const order = new Int32Array(count)
  if (count === 0) return order
  const leadDay = new Int32Array(count)
  const leadAmount = new Float64Array(count)
  const leadIsFile = new Uint8Array(count)
  let minDay = Infinity
  let maxDay = -Infinity
  for (let k = 0; k < count; k++) {
    const lead = leads[k] as number
    let day: number
    if (lead >= 0) {
      leadIsFile[k] = 1
      day = fDay[lead] as number
      leadAmount[k] = fAmount[lead] as number
    } else {
      day = pDay[-1 - lead] as number
      leadAmount[k] = pAmount[-1 - lead] as number
    }
    leadDay[k] = day
    if (day < minDay) minDay = day
    if (day > maxDay) maxDay = day
  }
  const withinDay = (a: number, b: number): number =>
    (leadIsFile[b] as number) - (leadIsFile[a] as number) ||
    (leadAmount[a] as number) - (leadAmount[b] as number) ||
    compareText(idOf(leads[a] as number), idOf(leads[b] as number))
  const span = maxDay - minDay + 1
  const starts = new Int32Array(span + 1)
  for (let k = 0; k < count; k++) (starts[(leadDay[k] as number) - minDay + 1] as number)++
  for (let d = 0; d < span; d++) starts[d + 1] = (starts[d + 1] as number) + (starts[d] as number)
  const fill = starts.slice()
  for (let k = 0; k < count; k++) order[(fill[(leadDay[k] as number) - minDay] as number)++] = k
  for (let d = 0; d < span; d++) sortDay(order.subarray(starts[d] as number, starts[d + 1] as number), leadIsFile, leadAmount, withinDay)
  return order
}

/**
 * Sorts one day's items in place: lines before records, then amount, then id. Amounts within ±2^31
 * minor units (nearly every statement) are sorted as packed numbers by the native typed-array sort,
 * and only runs of equal amounts are ordered by id; anything larger goes through the general comparator.
 */
function sortDay(day: Int32Array, isFile: Uint8Array, amount: Float64Array, general: (a: number, b: number) => number): void {
  const n = day.length
  if (n < 2) return
  let fits = n < 1 << 20
  for (let j = 0; fits && j < n; j++) fits = Math.abs(amount[day[j] as number] as number) < 2 ** 31
  if (!fits) {
    day.set(Array.from(day).sort(general))
    return
  }
  // key = (group, amount) in the high bits, position in `day` in the low 20: exact below 2^53.
  const keys = new Float64Array(n)
  for (let j = 0; j < n; j++) {
    const k = day[j] as number
    keys[j] = ((isFile[k] ? 0 : 2 ** 32) + (amount[k] as number) + 2 ** 31) * 2 ** 20 + j
  }
  keys.sort()
  const unsorted = day.slice()
  for (let j = 0; j < n; j++) day[j] = unsorted[(keys[j] as number) % 2 ** 20] as number
  // Equal amounts: by id (the general comparator), run by run.
  for (let start = 0; start < n;) {
    let end = start + 1
    while (end < n && Math.floor((keys[end] as number) / 2 ** 20) === Math.floor((keys[start] as number) / 2 ** 20)) end++
    if (end - start > 1) day.subarray(start, end).sort(general)
    start = end
  }
}
