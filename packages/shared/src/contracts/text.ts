// Control characters in text (issue 16). A NUL byte makes PostgreSQL refuse the whole
// statement, and the other C0 characters have no business in a name, a number or an
// address. Tab, newline and carriage return are ordinary typing in the few multi-line
// fields (a comment, notes, an announcement's content) and allowed there only.
//
// The server applies this centrally to every request (params, query, JSON body and
// multipart fields), so a new route cannot forget it; a batch route that wants to refuse
// one item instead of the whole call checks its items with `controlCharacterProblem`.

/** Field names (the last key of a path) that hold multi-line text. */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['comment', 'content', 'notes']);

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

function firstControlCharacter(value: string, multiline: boolean): number | null {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x20) continue;
    if (multiline && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
    return code;
  }
  return null;
}

/** The message for one text value, or null when it is clean. */
export function controlCharacterProblem(field: string, value: string, multiline = false): string | null {
  const code = firstControlCharacter(value, multiline);
  if (code === null) return null;
  return `${field} must not contain control characters (found ${hex(code)})`;
}

function lastKey(path: string): string {
  const m = /([A-Za-z0-9_]+)(?:\[\d+\])*$/.exec(path);
  return m?.[1] ?? path;
}

/**
 * Walks any parsed value (JSON body, query, params) and returns the message for the first
 * text with a control character, naming its path (`updates[2].notes`), or null.
 * `skip` names top-level fields a route checks item by item itself.
 */
export function findControlCharacters(
  value: unknown,
  opts: { path?: string; skip?: readonly string[]; depth?: number } = {},
): string | null {
  const path = opts.path ?? '';
  const depth = opts.depth ?? 0;
  if (depth > 32) return null;
  if (typeof value === 'string') {
    return controlCharacterProblem(path || 'request', value, MULTILINE_FIELDS.has(lastKey(path)));
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findControlCharacters(value[i], { path: `${path}[${i}]`, depth: depth + 1 });
      if (problem) return problem;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (depth === 0 && opts.skip?.includes(key)) continue;
      if (firstControlCharacter(key, false) !== null) return 'A field name must not contain control characters';
      const problem = findControlCharacters(item, { path: path ? `${path}.${key}` : key, depth: depth + 1 });
      if (problem) return problem;
    }
  }
  return null;
}
