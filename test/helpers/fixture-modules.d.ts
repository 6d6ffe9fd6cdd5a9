/** Vite's `?inline` asset import: the file as a base64 `data:` URL (see media-fixtures.ts). */
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}

/** Vite's `?raw` import: the file's text (documented replies under test/fixtures/contracts). */
declare module "*?raw" {
  const text: string;
  export default text;
}
