// Typed, validated events from main to the renderer (progress, notices), over whatever sends them.
import { eventChannel, events, type EventName, type EventPayload } from '../../shared/ipc/contract'

export type EventSink = (channel: string, name: EventName, payload: unknown) => void

export interface EventEmitter {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
}

/** Checks each payload against the contract before it leaves main, so the renderer only ever sees valid events. */
export function createEventEmitter(sink: EventSink): EventEmitter {
  return {
    emit(event, payload) {
      const parsed = events[event].parse(payload)
      sink(eventChannel(event), event, parsed)
    }
  }
}
