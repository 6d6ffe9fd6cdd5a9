// Types of deploy-checks.mjs for the node tests.
import type { ResolvedConfig } from "./production-config.mjs";
export const BUNDLE_LIMITS: { gzipBytes: number; rawBytes: number };
export function checkBundleSize(
  outdir: string,
  limits?: { gzipBytes: number; rawBytes: number },
): { ok?: string; problem?: string };
/** The bundle holds none of the screen reader's parts and no native module. */
export function checkNoLocalOnlyParts(outdir: string): string | null;
export function checkStartsWithoutExperimental(
  outdir: string,
  config: ResolvedConfig,
): string | null;
export function checkReachable(config: ResolvedConfig): string | null;
export function checkDistinctName(production: ResolvedConfig, local: ResolvedConfig): string | null;
export function checkObservability(config: ResolvedConfig): string | null;
export function checkSecrets(envSource: string, deployed: string[]): string | null;
export function checkCors(corsJson: unknown, config: ResolvedConfig): string | null;
export function checkVectorIndex(
  embedderSource: string,
  adapterSource: string,
  index: { dimensions: number; metadata: { propertyName: string }[] },
): string | null;
