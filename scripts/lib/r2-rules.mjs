// The media bucket's CORS and lifecycle rules: the committed files under deploy/ (R2's API
// format, what `wrangler r2 bucket cors|lifecycle set --file` sends) and a comparison with
// what `… list` prints, so a deploy sets them only when the bucket's differ. wrangler has no
// JSON output for those lists: the comparison renders the files the way wrangler renders
// the bucket's rules, and any difference, or output it cannot read, means "set them".
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

/** The CORS file beside the configuration. */
export const corsFile = (configPath) => path.join(path.dirname(configPath), "deploy/r2-cors.json");

/** The lifecycle file beside the configuration. */
export const lifecycleFile = (configPath) =>
  path.join(path.dirname(configPath), "deploy/r2-lifecycle.json");

/**
 * The CORS rules for browser uploads: the playground (the API's own origin) and any other
 * origin the operator lists PUT to presigned targets with `content-type` and read each
 * part's `ETag`; GET and HEAD let pages read signed media and thumbnail URLs.
 */
export function corsRules(origins) {
  return {
    rules: [
      {
        allowed: { origins, methods: ["GET", "HEAD", "PUT"], headers: ["content-type"] },
        exposeHeaders: ["ETag"],
        maxAgeSeconds: 3600,
      },
    ],
  };
}

/** Rows as `wrangler r2 bucket cors list` prints CORS rules. */
export function corsRows(rules) {
  return rules.map((rule) => ({
    allowed_origins: rule.allowed?.origins?.join(", ") || "(no origins)",
    allowed_methods: rule.allowed?.methods?.join(", ") || "(no methods)",
    allowed_headers: rule.allowed?.headers?.join(", ") || "(no headers)",
    exposed_headers: rule.exposeHeaders?.join(", ") || "(no exposed headers)",
    max_age_seconds: rule.maxAgeSeconds?.toString() || "(0 seconds)",
  }));
}

const after = (condition) => `after ${condition.maxAge / 86400} days`;

/** Rows as `wrangler r2 bucket lifecycle list` prints lifecycle rules. */
export function lifecycleRows(rules) {
  return rules.map((rule) => {
    const actions = [];
    if (rule.deleteObjectsTransition)
      actions.push(`Expire objects ${after(rule.deleteObjectsTransition.condition)}`);
    if (rule.abortMultipartUploadsTransition)
      actions.push(
        `Abort incomplete multipart uploads ${after(rule.abortMultipartUploadsTransition.condition)}`,
      );
    return {
      name: rule.id,
      enabled: rule.enabled ? "Yes" : "No",
      prefix: rule.conditions?.prefix || "(all prefixes)",
      action: actions.join(", ") || "(none)",
    };
  });
}

/** The labelled records a `… list` command printed (blocks of `label: value` lines). */
export function listedRows(output) {
  const rows = [];
  let row = null;
  for (const raw of stripVTControlCharacters(output).split("\n")) {
    const match = raw.match(/^([a-z_]+):\s+(.*?)\s*$/);
    if (!match) {
      row = null;
      continue;
    }
    if (row === null) {
      row = {};
      rows.push(row);
    }
    row[match[1]] = match[2];
  }
  return rows;
}

/** Whether the listed rows are exactly the wanted ones, in order. */
export function sameRows(listed, wanted) {
  return JSON.stringify(listed) === JSON.stringify(wanted);
}
