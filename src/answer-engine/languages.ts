import { baseLanguage } from "../lib/text/language";
import { ENGLISH } from "./english";
import { GERMAN } from "./german";
import type { LanguageReading } from "./language-reading";

const READINGS: Record<string, LanguageReading> = { en: ENGLISH, de: GERMAN };

/** Every language the engine can read (its negations, instructions and question words). */
export const READABLE_LANGUAGES: readonly string[] = Object.keys(READINGS);

/** The reading of a language tag or locale (`en-GB`, `ger`, `de`), if the engine has one. */
export function readingFor(language: string | null | undefined): LanguageReading | undefined {
  return language ? READINGS[baseLanguage(language)] : undefined;
}
