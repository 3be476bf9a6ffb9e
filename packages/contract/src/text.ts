import { z } from 'zod';

/**
 * Characters no text from a request or a source may hold (DESIGN §12.1): C0 controls but tab, line feed
 * and carriage return, DEL and C1 controls (NUL breaks PostgreSQL's text type, the rest hide what a text
 * says); the invisible and the direction-changing format characters — soft hyphen, Arabic letter mark,
 * Mongolian vowel separator, zero-width space and joiners, left-to-right and right-to-left marks, line and
 * paragraph separators, bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
 * word joiner and invisible operators, the deprecated format characters, the byte order mark, interlinear
 * annotations — and the noncharacters U+FFFE, U+FFFF. A text that shows one thing and stores another
 * («ПИК» with a right-to-left override, a name with a zero-width space beside the real one) is refused.
 */
export const FORBIDDEN_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\ufffe\uffff]/;
/** A high surrogate not followed by a low one, or a low one not after a high one: not Unicode text. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** The tag characters (U+E0000–U+E007F): invisible, they can spell a hidden text inside a visible one. */
const TAGS = /[\u{e0000}-\u{e007f}]/u;
/** What a one-line text (a name, an id, a label) may not hold besides: tab and line breaks. */
const LINE_BREAKS = /[\t\n\r]/;

/**
 * Whether a text holds what no text may (FORBIDDEN_CHARACTERS, a lone surrogate, a tag character) or, unless
 * it may span lines, a tab or a line break.
 */
export function hasControlCharacters(text: string, multiline = false): boolean {
  return (
    FORBIDDEN_CHARACTERS.test(text) ||
    LONE_SURROGATE.test(text) ||
    TAGS.test(text) ||
    (!multiline && LINE_BREAKS.test(text))
  );
}

/**
 * A secret (a password) is never shown, so no character of it can mislead a reader: it may hold what a
 * keyboard types, emoji joined by U+200D among them. Only what is not text is refused: a lone surrogate
 * and the control characters but tab (DESIGN §12.1 asks well-formed text; its list is of names and labels).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const SECRET_FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;
export function hasForbiddenInSecret(text: string): boolean {
  return SECRET_FORBIDDEN.test(text) || LONE_SURROGATE.test(text);
}

/** Body fields that hold a secret, held to `hasForbiddenInSecret` instead (the edge's check, the schemas). */
export const SECRET_FIELDS: readonly string[] = ['password', 'currentPassword', 'newPassword'];

export const CONTROL_CHARACTERS_MESSAGE =
  'содержит недопустимые символы (управляющие, невидимые, смены направления или непарные суррогаты)';

/** Longest name of a developer, project or user; longest flat id or other identifier. */
export const MAX_NAME_LENGTH = 200;
export const MAX_ID_LENGTH = 100;

/**
 * A text field: at most `max` characters, none of the forbidden ones (and, unless `multiline`, no tab or line
 * break), each failure naming the field.
 */
export const safeText = (name: string, max: number, multiline = false) =>
  z
    .string({ message: `${name}: должно быть строкой` })
    .max(max, { message: `${name}: не длиннее ${max} символов` })
    .refine((v) => !hasControlCharacters(v, multiline), {
      message: `${name}: ${CONTROL_CHARACTERS_MESSAGE}`,
    });

/** A secret field (a password): at most `max` characters, none that are not text (`hasForbiddenInSecret`). */
export const secretText = (name: string, max: number) =>
  z
    .string({ message: `${name}: должно быть строкой` })
    .max(max, { message: `${name}: не длиннее ${max} символов` })
    .refine((v) => !hasForbiddenInSecret(v), { message: `${name}: ${CONTROL_CHARACTERS_MESSAGE}` });
