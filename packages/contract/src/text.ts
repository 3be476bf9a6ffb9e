import { z } from 'zod';

/**
 * Control characters no name, id or query may hold (C0 except tab, line feed and carriage return, and
 * DEL): NUL breaks PostgreSQL's text type, the rest only hide what a text says.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTERS.test(text);
}

export const CONTROL_CHARACTERS_MESSAGE = 'содержит недопустимые управляющие символы';

/** Longest name of a developer, project or user; longest flat id or other identifier. */
export const MAX_NAME_LENGTH = 200;
export const MAX_ID_LENGTH = 100;

/** A text field: at most `max` characters and no control characters, each failure naming the field. */
export const safeText = (name: string, max: number) =>
  z
    .string({ message: `${name}: должно быть строкой` })
    .max(max, { message: `${name}: не длиннее ${max} символов` })
    .refine((v) => !hasControlCharacters(v), { message: `${name}: ${CONTROL_CHARACTERS_MESSAGE}` });
