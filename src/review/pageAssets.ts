/**
 * The review page: static HTML, CSS and script served by `sitechat review` (the script and style are `page/review.ts`
 * and `page/review.css`: src/shared/pageAsset.ts). Constants only — no row text and no token is ever interpolated here:
 * the script takes the token from the URL's fragment (src/shared/serverGuard.ts), fetches the queue as JSON and puts
 * every text in the page with `textContent`, so an answer (untrusted text from the site) is shown, never run. The one
 * value in the page, `data-forbidden`, is the pattern of the characters a label file refuses (the script reads it).
 * The CSP allows this origin's script and style only.
 */
import { FORBIDDEN_CHARACTER } from '../datasets/encoding';
import { html } from '../render/htmlTemplate';
import { pageScript, pageStyle } from '../shared/pageAsset';

export const REVIEW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page: the same for every request, with nothing of a run or of the token in it. */
export const REVIEW_HTML = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>sitechat review</title><link rel="stylesheet" href="/review.css"></head>
<body data-forbidden="${FORBIDDEN_CHARACTER.source}">
<header>
  <h1>sitechat review <span id="run" class="id"></span></h1>
  <div id="progress" aria-live="polite">loading…</div>
  <div id="runs"></div>
</header>
<div id="errors" hidden><span id="error-text"></span> <button id="retry" type="button">Retry failed saves</button></div>
<main id="row" aria-live="polite"></main>
<section id="note-box"><label for="note">Note (optional, saved with the next pass/fail)</label>
<textarea id="note" rows="2" placeholder="press n to write; Esc to leave the note"></textarea>
<p id="note-error" role="alert" hidden></p></section>
<details id="agreement"><summary>Grader agreement with the labels (<span id="agreement-count">…</span>)</summary>
<p id="agreement-supported"></p>
<table><thead><tr><th>grader</th><th>rows</th><th>decided</th><th>coverage</th><th>agreement</th><th>false fails</th><th>false passes</th></tr></thead><tbody id="agreement-rows"></tbody></table>
<p class="hint">The same figures as <code>npx sitechat labels agreement --run</code>: each grader on the labelled rows of this review.</p>
</details>
<footer id="keys">
  <b>Keys</b>: <kbd>p</kbd> pass · <kbd>f</kbd> fail · <kbd>s</kbd> skip · <kbd>n</kbd> note ·
  <kbd>j</kbd>/<kbd>→</kbd> next · <kbd>k</kbd>/<kbd>←</kbd> previous. Saving happens in the background; the next row appears at once.
</footer>
<script src="/review.js"></script>
</body></html>
`.value;

export const REVIEW_CSS = pageStyle(__dirname, 'review');

export const REVIEW_JS = pageScript(__dirname, 'review');
