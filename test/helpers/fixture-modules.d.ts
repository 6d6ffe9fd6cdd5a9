/** Vite's `?inline` asset import: the file as a base64 `data:` URL (see media-fixtures.ts). */
declare module "*?inline" {
  const dataUrl: string;
  export default dataUrl;
}
