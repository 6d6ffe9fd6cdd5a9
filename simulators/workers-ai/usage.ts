// Token usage as a chat model reports it (`usage`: prompt, completion and total tokens, the
// Workers AI model schema), estimated without the model's tokenizer: about four characters of
// English text to a token, and a fixed count for each image.

const CHARS_PER_TOKEN = 4;
/**
 * Llama 4 cuts an image into 336 px tiles of 14 px patches, shuffled down 2×2: (336 / 14)² / 4 =
 * 144 tokens a tile. The simulated frames are one tile each.
 */
const TOKENS_PER_IMAGE_TILE = 144;

/** Tokens of a text, estimated as ⌈characters / 4⌉. */
export function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Tokens of a chat request: its messages' text parts and one tile per image part. */
export function promptTokens(inputs: unknown): number {
  const messages = (inputs as { messages?: { content?: unknown }[] } | null)?.messages ?? [];
  let tokens = 0;
  for (const { content } of messages) {
    if (typeof content === "string") tokens += textTokens(content);
    if (!Array.isArray(content)) continue;
    for (const part of content as { type?: unknown; text?: unknown }[]) {
      if (typeof part.text === "string") tokens += textTokens(part.text);
      else if (part.type === "image_url") tokens += TOKENS_PER_IMAGE_TILE;
    }
  }
  return tokens;
}

/** The `usage` of a chat answer `response` to `inputs`. */
export function chatUsage(inputs: unknown, response: string) {
  const prompt = promptTokens(inputs);
  const completion = textTokens(response);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}
