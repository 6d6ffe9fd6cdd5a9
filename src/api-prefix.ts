/** Where the alpha surface lives (the spec's Versioning section). */
export const API_PREFIX = "/api/v1alpha1";
