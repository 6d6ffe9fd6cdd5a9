/** The playground's skeleton; playground/src fills it (every id here is one it uses). */
export const PLAYGROUND_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Video Analysis Service playground</title>
<link rel="stylesheet" href="/playground/app.css">
<script type="module" src="/playground/app.js"></script>
</head>
<body>
<header><h1>Video Analysis Service playground</h1>
<p>Everything here calls the API of this origin with your key, as <a href="/docs">/docs</a> describes it.</p></header>
<section aria-labelledby="key-title"><h2 id="key-title">API key</h2>
<form id="key-form"><label>Key <input id="key" type="password" autocomplete="off" placeholder="vas_…"></label>
<button type="submit">Use key</button></form>
<p id="key-state" role="status">No key yet.</p>
<p class="note">Kept in this tab's session storage only: closing the tab forgets it.</p></section>
<section aria-labelledby="upload-title"><h2 id="upload-title">Upload</h2>
<form id="upload-form"><input id="file" type="file" accept="video/*,.mkv,.mov">
<button type="submit">Upload</button></form>
<label>Sent <progress id="upload-progress" max="100" value="0"></progress></label>
<p id="upload-status" role="status"></p>
<label>Processing <progress id="processing-progress" max="100" value="0"></progress></label>
<p id="processing-status" role="status"></p>
<p id="processing-understood" class="understood-now"></p></section>
<section aria-labelledby="videos-title"><h2 id="videos-title">Videos</h2>
<button id="refresh-videos" type="button">Refresh</button>
<p id="videos-status" role="status"></p>
<ul id="videos" class="tiles"></ul></section>
<section aria-labelledby="captions-title"><h2 id="captions-title">Captions</h2>
<p class="note">A video with nothing heard becomes searchable by its captions: send a WebVTT (.vtt) or SRT (.srt) file and the video is re-indexed with it.</p>
<form id="captions-form"><label>Video <select id="captions-video" required></select></label>
<label>Language <input id="captions-language" value="en" size="8" required></label>
<input id="captions-file" type="file" accept=".vtt,.srt,text/vtt,application/x-subrip">
<button type="submit">Upload captions</button></form>
<p id="captions-status" role="status"></p>
<ul id="captions"></ul></section>
<section aria-labelledby="search-title"><h2 id="search-title">Search</h2>
<form id="search-form"><input id="query" type="search" placeholder="forklift vests" required>
<button type="submit">Search</button></form>
<p id="search-status" role="status"></p>
<ul id="results" class="tiles"></ul>
<div id="player"></div></section>
<section aria-labelledby="run-title"><h2 id="run-title">Run a profile</h2>
<form id="run-form"><label>Profile <select id="run-profile" required></select></label>
<label>Video <select id="run-video" required></select></label>
<button type="submit">Run</button></form>
<p id="run-status" role="status"></p>
<article id="report"></article></section>
<section aria-labelledby="workflow-title"><h2 id="workflow-title">Run a workflow</h2>
<form id="workflow-form"><label>Workflow <select id="workflow" required></select></label>
<button type="submit">Run</button></form>
<p id="workflow-status" role="status"></p>
<ul id="findings"></ul></section>
<section aria-labelledby="usage-title"><h2 id="usage-title">Usage</h2>
<form id="usage-form"><label>From <input id="usage-from" type="date"></label>
<label>To <input id="usage-to" type="date"></label>
<button type="submit">Show usage</button></form>
<p class="note">Needs a key with VIEW_USAGE. Empty dates: the last 30 days.</p>
<p id="usage-status" role="status"></p>
<table id="usage"></table></section>
</body>
</html>
`;

/** The playground's styles, a file of their own so the CSP needs no inline style. */
export const PLAYGROUND_CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1d1d1f}
section{border-top:1px solid #ddd;padding:.5rem 0 1rem}
form{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
progress{width:16rem;vertical-align:middle}
.note{color:#666;font-size:.9em}
.tiles{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.75rem}
.tiles img,.no-thumb{width:100%;aspect-ratio:16/9;object-fit:cover;background:#eee;display:block}
.video,.result{display:flex;flex-direction:column;gap:.2rem;text-align:left;font:inherit}
.result{border:1px solid #ccc;background:#fff;padding:.25rem;cursor:pointer}
.score,.time,.status{color:#555;font-size:.85em}
.said{font-size:.85em;white-space:pre-line}
.tiles .explanation,.tiles .scope{grid-column:1/-1}
.understood,.understood-now span{font-size:.85em;color:#444}
.understood-now{display:flex;flex-direction:column;gap:.2rem}
.warning{font-size:.85em;color:#8a3b00;background:#fff4e5;padding:.2rem .3rem}
.kind{font-size:.8em;color:#8a3b00}
#player video{width:100%;max-height:24rem;background:#000}
#report{border:1px solid #ddd;padding:0 1rem;margin-top:.5rem}
#report:empty{display:none}
#findings{padding-left:1rem}.finding p{margin:.1rem 0 .5rem}
#report table,#usage{border-collapse:collapse}#report td,#report th,#usage td,#usage th{border:1px solid #ccc;padding:.2rem .4rem}
#usage tbody th{white-space:nowrap;text-align:left}
`;
