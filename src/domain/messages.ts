/** Processing queue: probe and index one uploaded video. */
export interface ProcessVideoMessage {
  type: "process-video";
  video_id: string;
  workspace_id: string;
}

/** Indexing queue: make one processed video searchable, then mark it completed. */
export interface IndexVideoMessage {
  type: "index-video";
  video_id: string;
  workspace_id: string;
}

/** Analysis queue: execute one run. */
export interface RunAnalysisMessage {
  type: "run-analysis";
  run_id: string;
  workspace_id: string;
}
