/** Processing queue: probe and index one uploaded video. */
export interface ProcessVideoMessage {
  type: "process-video";
  video_id: string;
  workspace_id: string;
}

/** Processing queue: build the index of a video whose windows are all understood. */
export interface AssembleVideoMessage {
  type: "assemble-video";
  video_id: string;
  workspace_id: string;
}

/** Windows queue: understand one planned window of a video (a stretch of audio, some frames). */
export interface UnderstandWindowMessage {
  type: "understand-window";
  video_id: string;
  workspace_id: string;
  /** The window's position in the video's plan. */
  position: number;
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
