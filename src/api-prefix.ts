/** Where the alpha surface lives (spec section 9). */
export const API_PREFIX = "/api/v1alpha1";
