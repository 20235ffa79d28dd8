// Small text helpers shared by host and renderer.

/** Shortens text to `limit` characters (ending in …), e.g. for messages whose length the IPC contract bounds. */
export function clip(text: string, limit = 1000): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`
}
