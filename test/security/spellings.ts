/** Each character after the leading slash percent-encoded on its own (both cases), and all of them. */
export function encodedSpellings(path: string): string[] {
  const enc = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
  const out = new Set<string>();
  for (let i = 1; i < path.length; i++) {
    const hex = enc(path[i]!);
    out.add(`${path.slice(0, i)}%${hex.toLowerCase()}${path.slice(i + 1)}`);
    out.add(`${path.slice(0, i)}%${hex.toUpperCase()}${path.slice(i + 1)}`);
  }
  out.add(`/${[...path.slice(1)].map((c) => `%${enc(c)}`).join('')}`);
  return [...out].filter((s) => s !== path);
}
