import { LEDGER_PREFIX } from "./r2-s3/ledger";
import { ANSWER_LEDGER_PREFIX } from "./workers-ai/answer-ledger";

/** Prefixes of the media bucket where simulators keep their own records: no S3 request reaches them. */
export const RESERVED_PREFIXES: readonly string[] = [LEDGER_PREFIX, ANSWER_LEDGER_PREFIX];
