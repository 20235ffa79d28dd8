// Accessibility checked as the user sees each screen: axe-core's WCAG 2.2 A and AA rules run in the page at every screenshot the browser tests take, light and dark; a serious or critical violation fails the test, unless it is one of the accepted exceptions below, each with why (as Electronegativity's are).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** The WCAG levels checked. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'] as const

/** Violations accepted for now: the rule, which elements (a selector pattern), and why. */
export const ACCEPTED_A11Y: readonly { rule: string; target: RegExp; why: string }[] = [
  {
    rule: 'aria-required-parent',
    target: /\[aria-colindex="\d+"\]\[data-rgcol="\d+"\]/,
    why: "RevoGrid (the bulk files' grid) puts its column headers straight in the grid, with no row around them: its own markup, which the app cannot change without forking it; every cell's name and problem are also said in the problems list beside the grid"
  },
  {
    rule: 'aria-required-children',
    target: /^revo-grid\[aria-colcount="\d+"\]$|^revogr-data\[slot="content"\]/,
    why: "RevoGrid's grid and its empty rows (the spare rows at the end of a bulk file) as the library marks them up; as above"
  },
  {
    rule: 'scrollable-region-focusable',
    target: /\.n-data-table-base-table-body(\.n-scrollbar)?(\[role="none"\])? > \.n-scrollbar-container\[role="none"\]$/,
    why: "Naive UI's data table scrolls its body in a box that takes no focus; the review's, the sessions' and the bank reconciliation's tables are read with the keyboard through the app's own keys (j/k, arrows), which scroll the chosen row into view"
  }
]

export interface A11yViolation {
  rule: string
  impact: string
  help: string
  targets: { target: string; html: string; summary: string }[]
}

/**
 * Toasts are left out of the check: a screenshot may catch one fading in or out, its text then as faint as the moment
 * makes it (once shown, Naive UI's message text is the body text on white, which passes).
 */
const LEFT_OUT = ['.n-message-container']

/** Runs axe in the page as it is now: the serious and critical violations not accepted above. */
export async function a11yViolations(page: Page): Promise<A11yViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE)
  const found = await page.evaluate(
    async ([tags, leftOut]: readonly [readonly string[], readonly string[]]) => {
      const axe = (globalThis as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: unknown[] }> } }).axe
      const doc = (globalThis as unknown as { document: unknown }).document
      const result = await axe.run(
        { include: [doc], exclude: leftOut.map((selector: string) => [selector]) },
        {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations']
        }
      )
      return result.violations as {
        id: string
        impact: string | null
        help: string
        nodes: { target: string[]; html: string; failureSummary?: string }[]
      }[]
    },
    [[...AXE_TAGS], LEFT_OUT] as const
  )
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact as string,
      help: v.help,
      targets: v.nodes
        .map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 300), summary: (n.failureSummary ?? '').slice(0, 300) }))
        .filter((n) => !ACCEPTED_A11Y.some((a) => a.rule === v.id && a.target.test(n.target)))
    }))
    .filter((v) => v.targets.length > 0)
}

/** The violations in words, for a failed test. */
export function describeViolations(screen: string, violations: readonly A11yViolation[]): string {
  return [
    `${screen}: ${violations.length} serious or critical accessibility violation(s) (axe-core, WCAG 2.2 AA):`,
    ...violations.flatMap((v) => [
      `  ${v.rule} (${v.impact}): ${v.help}`,
      ...v.targets.slice(0, 5).map((t) => `    ${t.target}  ${t.html}\n      ${t.summary.replace(/\n/g, ' ')}`)
    ])
  ].join('\n')
}
