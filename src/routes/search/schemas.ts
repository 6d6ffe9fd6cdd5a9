import { z } from "@hono/zod-openapi";
import type { SameShape } from "../../schemas/common";
import type { SearchExplanation } from "../../services/search/explain";
import type { SearchScope } from "../../services/search/scope";

const MatchKindSchema = z
  .enum(["transcript", "scene", "ocr", "metadata", "tags", "filename"])
  .openapi("SearchMatchKind", {
    description:
      "transcript (a caption cue or recognised speech), scene or ocr (a described frame, the text read on it), metadata (a container tag), tags, filename (the video's filename: it names the file and is never evidence of what the video holds)",
  });

export const SearchBodySchema = z
  .strictObject({
    query: z.string().trim().min(1).max(1000).openapi({
      description:
        'Natural language; put words in double quotes to require them as written, e.g. "loading dock"',
      example: "who must wear high visibility vests",
    }),
    video_ids: z
      .array(z.string().max(1000))
      .max(100)
      .optional()
      .openapi({
        description:
          "Only these videos (at most 100); if any is not visible to the workspace the request " +
          "answers 404. An empty array selects no video and answers an empty page.",
      }),
    limit: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(25)
      .openapi({ description: "Results per page, 1-100", example: 25 }),
    threshold: z.number().min(0).max(1).default(0.7).openapi({
      description:
        "Minimum score, 0-1, default 0.7: moments scoring less are left out. 0.7 keeps moments holding the query as written (0.97), all its words (0.85), or most of them with a close meaning; lower it (e.g. 0.3) to see moments holding only some of the words. An empty answer's `explanation.suggested_threshold` says where a result would appear, when one would.",
      example: 0.7,
    }),
    cursor: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: "next_cursor of the previous page, with the same body otherwise" }),
  })
  .openapi("SearchRequest");

export const MatchSchema = z
  .object({
    kind: MatchKindSchema,
    source: z.string().openapi({
      description:
        "Where the text comes from: `text-track:<index>[:<language>]`, `captions-uploaded:<language>`, `whisper[:<language>]`, `filename`, …",
      example: "text-track:0:eng",
    }),
    text: z.string().openapi({ example: "Forklift operators must wear high visibility vests." }),
    start: z.number().openapi({ description: "Seconds from the start", example: 5 }),
    end: z.number().openapi({ description: "Seconds from the start", example: 8.5 }),
  })
  .openapi("SearchMatch");

export const ExplanationSchema = z
  .object({
    reason: z.enum(["no_videos", "nothing_understood", "no_match", "below_threshold"]).openapi({
      description:
        "no_videos: no completed video to search; nothing_understood: nothing was heard or seen in the videos searched; no_match: no moment holds a word of the query or comes near its meaning; below_threshold: moments matched but scored below `threshold`",
      example: "below_threshold",
    }),
    detail: z.string().openapi({
      description: "The reason in plain words, with what to do",
      example:
        "No moment scored at least the threshold 0.7; the best scored 0.3778. Search with threshold 0.37 to see 2 results …",
    }),
    threshold: z.number().openapi({ description: "The threshold used", example: 0.7 }),
    best_score: z.number().nullable().openapi({
      description:
        "The best score of a match below `threshold`: a moment holding a word of the query or near its meaning, or a filename holding a word of it; null when nothing matched (a moment holding no word of the query whose meaning score is under 0.3 is noise, not a match)",
      example: 0.3778,
    }),
    suggested_threshold: z.number().nullable().openapi({
      description:
        "The highest threshold at which this search shows a match (`best_score` rounded down to two decimals); null when nothing but noise scored below `threshold`",
      example: 0.37,
    }),
    videos_searched: z
      .number()
      .int()
      .openapi({ description: "Completed videos searched (counted up to 10,000)", example: 3 }),
    videos_without_understanding: z.number().int().openapi({
      description:
        "Of them, those in which nothing was heard or seen (see `media.understood` on the video)",
      example: 1,
    }),
  })
  .openapi("SearchExplanation", {
    description: "Why a search answered no result; present only on an empty first page",
  });

export const SearchResultSchema = z
  .object({
    id: z.string().openapi({
      description: "Stable id of the matching segment",
      example: "seg_01jd3m6t8y0c7x4k2n9q5r1s3v_00001",
    }),
    video_id: z.string().openapi({ example: "vid_01jd3m6t8y0c7x4k2n9q5r1s3v" }),
    title: z.string().openapi({
      description: "The video's title, or its filename",
      example: "Warehouse safety briefing",
    }),
    score: z.number().min(0).max(1).openapi({
      description:
        "0-1, the same scale for every deployment: 0.97 the query's words as written; 0.85 all its words; meaning-only matches up to 0.9 by calibrated vector similarity; both combine. A filename's words score 0.85 times what the same words would score in the video.",
      example: 0.97,
    }),
    scene_description: z.string(),
    tags: z.array(z.string()),
    time_position: z.number().openapi({
      description: "Seconds from the start: where the matching span begins, inside the segment",
      example: 5,
    }),
    text: z.string().openapi({
      description:
        "The text that matched, one shown text per line: the cues, on-screen text, container tags or tags holding the query's words (for a match by meaning alone, what was said), or the filename of a video found by its name alone. A quoted phrase is always inside one of these lines.",
      example: "Forklift operators must wear high visibility vests.",
    }),
    matches: z.array(MatchSchema).openapi({
      description:
        "The texts that matched, in time order, each with its kind, source and times; a match whose words are spread over this moment and the next lists texts of both",
    }),
    image: z
      .string()
      .optional()
      .openapi({ description: "Signed thumbnail URL (valid at least 1 hour)" }),
    video_url: z.string().optional().openapi({
      description: "Signed video URL (valid at least 1 hour) that plays from time_position (#t=)",
    }),
  })
  .openapi("SearchResult");

export const ScopeSchema = z
  .object({
    videos_searched: z.number().int().openapi({
      description: "Completed videos searched (counted up to 10,000)",
      example: 12,
    }),
    videos_without_understanding: z.number().int().openapi({
      description:
        "Of them, those in which nothing was heard or seen (see `media.understood` on the video): only their filename, title and tags could match",
      example: 3,
    }),
    videos_not_searched: z.number().int().openapi({
      description:
        "Videos of the workspace (or of `video_ids`) not searched: `videos_not_yet_indexed` and `videos_failed` together",
      example: 2,
    }),
    videos_not_yet_indexed: z.number().int().openapi({
      description: "Still uploading or processing (`queued`, `processing`)",
      example: 1,
    }),
    videos_failed: z.number().int().openapi({ description: "Failed videos", example: 1 }),
    kinds_searched: z.array(MatchKindSchema).openapi({
      description:
        "The kinds of text search matches in this deployment; a kind not listed is not read here (locally: `scene` and `ocr`, pictures and on-screen text)",
      example: ["transcript", "metadata", "tags", "filename"],
    }),
    detail: z.string().openapi({
      description: "What was searched and what was not, in plain words",
      example:
        "12 videos searched. It searched caption and subtitle tracks, uploaded captions, container tags and filenames. …",
    }),
  })
  .openapi("SearchScope", {
    description: "What the search covered; present on the first page",
  });

/** Fails to compile when the scope's schema and the service's type drift apart. */
export const SCOPE_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ScopeSchema>,
  SearchScope
> = true;
/** Fails to compile when the explanation's schema and the service's type drift apart. */
export const EXPLANATION_SCHEMA_MATCHES_PRESENTER: SameShape<
  z.infer<typeof ExplanationSchema>,
  SearchExplanation
> = true;
