/** A limitation code with its kind and the reason the trial report gives for it. */
export function reasonOf(code: string): {
  code: string;
  kind: "codec" | "quota" | "memory" | "failure" | "absence" | "other";
  reason: string;
};
