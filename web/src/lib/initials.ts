const WORD = /[\p{L}\p{N}]/u;

/**
 * Spec §2: initials are the first letters of the first two words of the name. Punctuation such as "&" is not a
 * word: "Rise & Crumb" → "RC".
 */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((token) => Array.from(token).find((ch) => WORD.test(ch)))
    .filter((letter): letter is string => letter !== undefined)
    .slice(0, 2)
    .join("")
    .toUpperCase();
}
