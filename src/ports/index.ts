import type { Env } from "../env";
import { signingSecret } from "../services/secrets";
import { gatewayCredentials, LocalGatewayStorage } from "./storage/local-gateway";
import type { UploadStorage } from "./storage/port";
import { R2S3Storage } from "./storage/r2-s3";
import type { S3Credentials } from "./storage/sigv4";

/** The adapters behind every port, chosen once from the deployment's configuration. */
export interface Ports {
  storage: UploadStorage;
  /** Credentials of the local storage gateway this Worker serves; null in production. */
  storageGateway: Promise<S3Credentials> | null;
}

function required(env: Env, name: keyof Env): string {
  const value = env[name];
  if (typeof value !== "string" || value === "")
    throw new Error(`${name} must be configured for DEPLOYMENT=production`);
  return value;
}

/** Builds the adapters for `env.DEPLOYMENT` ("local" or "production"). */
export function createPorts(env: Env): Ports {
  if (env.DEPLOYMENT === "production") {
    return {
      storage: new R2S3Storage(
        { accountId: required(env, "R2_ACCOUNT_ID"), bucket: required(env, "R2_BUCKET_NAME") },
        {
          accessKeyId: required(env, "R2_ACCESS_KEY_ID"),
          secretAccessKey: required(env, "R2_SECRET_ACCESS_KEY"),
        },
      ),
      storageGateway: null,
    };
  }
  if (env.DEPLOYMENT !== "local")
    throw new Error(`DEPLOYMENT must be "local" or "production", not ${env.DEPLOYMENT}`);
  const credentials = gatewayCredentials(signingSecret(env));
  return {
    storage: new LocalGatewayStorage(env.MEDIA_BUCKET, credentials),
    storageGateway: credentials,
  };
}
