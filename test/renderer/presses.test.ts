// A shortcut table's presses: Ctrl (or Cmd) and Alt must be as written, Shift too where they are; a plain key is compared as typed.
import { describe, expect, it } from 'vitest'
import { pressMatches, type KeyPress } from '../../src/renderer/src/presses'

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods
})

describe('shortcut presses', () => {
  it('compares a plain key as typed, whatever Shift made of it', () => {
    expect(pressMatches('j', press('j'))).toBe(true)
    expect(pressMatches('j', press('J', { shiftKey: true }))).toBe(false)
    expect(pressMatches('?', press('?', { shiftKey: true }))).toBe(true)
    expect(pressMatches(' ', press(' '))).toBe(true)
    expect(pressMatches('ArrowDown', press('ArrowDown'))).toBe(true)
  })

  it('never takes a press with Ctrl, Cmd or Alt for a plain key', () => {
    expect(pressMatches('z', press('z', { ctrlKey: true }))).toBe(false)
    expect(pressMatches('z', press('z', { metaKey: true }))).toBe(false)
    expect(pressMatches('1', press('1', { altKey: true }))).toBe(false)
  })

  it('reads Ctrl as Ctrl or Cmd, compares the key without case, and wants Shift exactly as written', () => {
    expect(pressMatches('Ctrl+z', press('z', { ctrlKey: true }))).toBe(true)
    // Caps Lock on: the same press.
    expect(pressMatches('Ctrl+z', press('Z', { metaKey: true }))).toBe(true)
    expect(pressMatches('Ctrl+z', press('Z', { ctrlKey: true, shiftKey: true }))).toBe(false)
    expect(pressMatches('Ctrl+k', press('K', { metaKey: true }))).toBe(true)
    expect(pressMatches('Ctrl+Shift+v', press('V', { ctrlKey: true, shiftKey: true }))).toBe(true)
    expect(pressMatches('Ctrl+Shift+v', press('v', { ctrlKey: true }))).toBe(false)
    expect(pressMatches('Ctrl+Enter', press('Enter', { ctrlKey: true }))).toBe(true)
    expect(pressMatches('Alt+ArrowRight', press('ArrowRight', { altKey: true }))).toBe(true)
    expect(pressMatches('Alt+ArrowRight', press('ArrowRight', { altKey: true, ctrlKey: true }))).toBe(false)
    expect(pressMatches('Alt+2', press('2', { altKey: true }))).toBe(true)
  })
})
