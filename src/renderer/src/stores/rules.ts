// Rules store: the active profile's rules (and those proposed from what the user confirmed), a rule drafted from a line, tried on the session and the last closed ones, saved, enabled.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { CallResult } from '../../../shared/ipc/result'
import type { ProposedRule } from '../../../shared/learning'
import type { Rule, RulePreview, StoredRule } from '../../../shared/rules'
import { useCall } from '../calls'

export const useRulesStore = defineStore('rules', () => {
  const rules = ref<StoredRule[]>([])
  const preview = ref<RulePreview | null>(null)
  /** Rules proposed from what the user confirmed (shown to open as a new rule; never saved by themselves). */
  const proposed = ref<ProposedRule[]>([])
  const listCall = useCall(() => window.api.rules.list())
  const proposedCall = useCall(() => window.api.rules.proposed())

  /** The profile's rules again, and what is proposed; the error stays in `error`. */
  async function load(): Promise<void> {
    const answer = await listCall.run()
    if (answer?.ok) rules.value = answer.value
    const proposals = await proposedCall.run()
    if (proposals?.ok) proposed.value = proposals.value
  }
  const draft = (sessionId: string, itemKey: string): Promise<CallResult<Rule>> => window.api.rules.draft({ sessionId, itemKey })
  /** Tries the rule; the preview stays shown until the rule changes. */
  async function tryRule(sessionId: string, rule: Rule): Promise<CallResult<RulePreview>> {
    preview.value = null
    const answer = await window.api.rules.preview({ sessionId, rule })
    if (answer.ok) preview.value = answer.value
    return answer
  }
  async function save(rule: Rule): Promise<CallResult<{ stored: StoredRule; change: 'added' | 'new version' | 'unchanged' }>> {
    const answer = await window.api.rules.save({ rule })
    if (answer.ok) await load()
    return answer
  }
  async function setEnabled(name: string, enabled: boolean): Promise<CallResult<StoredRule>> {
    const answer = await window.api.rules.setEnabled({ name, enabled })
    if (answer.ok) await load()
    return answer
  }
  /** Moves a rule to a place in the order (1: tried first). */
  async function move(name: string, to: number): Promise<CallResult<StoredRule[]>> {
    const answer = await window.api.rules.move({ name, to })
    if (answer.ok) rules.value = answer.value
    return answer
  }
  /** Removes a rule: what it decided stays decided. */
  async function remove(name: string): Promise<CallResult<StoredRule[]>> {
    const answer = await window.api.rules.remove({ name })
    if (answer.ok) rules.value = answer.value
    return answer
  }
  return {
    rules,
    proposed,
    preview,
    error: listCall.error,
    proposedError: proposedCall.error,
    load,
    draft,
    tryRule,
    save,
    setEnabled,
    move,
    remove
  }
})
