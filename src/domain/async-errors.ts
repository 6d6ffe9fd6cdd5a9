/** The error object of a failed video, run or workflow: `code`, `title`, `detail`, `next_action`. */
export interface StoredError {
  code: string;
  title: string;
  detail: string;
  next_action: string;
}
