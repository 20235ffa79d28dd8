// Files dropped on the window: the renderer has their bytes and hands them to the host as base64, the one form the contract takes.

/** The file's bytes as base64, converted in chunks (a whole file through one String.fromCharCode call would overflow the stack). */
export async function fileToBase64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(binary)
}
