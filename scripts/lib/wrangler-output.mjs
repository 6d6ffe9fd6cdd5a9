// What `npm start` and `npm run dev` pass on of wrangler's output. wrangler reprints its
// bindings table on every update of its dev registry ("Connection status updated"), warns
// that cron triggers do not fire (the launcher fires the crash sweep itself) and that types
// might be out of date (npm test checks them); a reader needs the table once and no false
// alarm.

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are control characters.
const ANSI = /\u001b\[[0-9;]*m/g;

/** A line without its colour codes. */
export function plain(line) {
  return line.replace(ANSI, "");
}

/**
 * A stateful filter over wrangler's lines: returns whether a line is shown. The first
 * bindings table passes; later ones (up to the blank line that ends each) do not, and blank
 * lines do not pile up.
 */
export function wranglerOutputFilter() {
  let tables = 0;
  let skipUntil = null;
  let blank = false;
  const shows = (line) => {
    const text = plain(line);
    if (skipUntil !== null) {
      if (skipUntil(text)) skipUntil = null;
      return false;
    }
    if (text.includes("Your Worker has access to the following bindings")) {
      tables += 1;
      if (tables === 1) return true;
      skipUntil = (next) => next.trim() === "";
      return false;
    }
    if (text.includes("Connection status updated")) return false;
    if (text.includes("Your types might be out of date")) return false;
    if (text.includes("Scheduled Workers are not automatically triggered")) {
      skipUntil = (next) => next.includes("test-cron-triggers-locally");
      return false;
    }
    return true;
  };
  // What is left out leaves its blank lines behind: one in a row is enough.
  return (line) => {
    if (!shows(line)) return false;
    const wasBlank = blank;
    blank = plain(line).trim() === "";
    return !(blank && wasBlank);
  };
}
