/** Resources a run consumed (spec 2.1 provenance usage). */
export interface RunUsage {
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  total_tokens: number;
  media_seconds: number;
}
