export { completeUpload, startProcessing } from "./complete";
export { abortUpload, alarmTime, forgetUpload, settleUpload } from "./end";
export { openSession } from "./open";
export * from "./plan";
export { type ReportedPart, recordParts } from "./receipts";
export { normalizeEtag } from "./results";
export { mintTargets, viewSession } from "./targets";
export type * from "./types";
