import { monotonicFactory, ulid } from "ulid";

const nextUlid = monotonicFactory();

/** The identifier prefixes of the spec (its What the service does section) and of the admin API. */
export type IdPrefix =
  | "run"
  | "vid"
  | "finding"
  | "evidence"
  | "wf"
  | "rb"
  | "prof"
  | "tpl"
  | "rep"
  | "ans"
  | "wh"
  | "delivery"
  | "evt"
  | "rbi"
  | "user"
  | "ws"
  | "key"
  | "seg"
  | "snap"
  | "rsv"
  | "aud";

/**
 * A new identifier: the prefix, then a lowercase ULID. Identifiers sort by creation
 * time, which keyset pagination relies on for "newest first".
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now).toLowerCase()}`;
}

/** Whether a string has the shape of an identifier with the given prefix. */
export function hasIdShape(value: string, prefix: IdPrefix): boolean {
  return new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`).test(value);
}

/**
 * An identifier whose time part is `at`, not now: rows a run writes in any order then sort in
 * the order the run defines (its start plus the row's position), as if written one by one.
 */
export function idAt(prefix: IdPrefix, at: number): string {
  return `${prefix}_${ulid(at).toLowerCase()}`;
}
