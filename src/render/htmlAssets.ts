/**
 * Static CSS and script of `report.html` (and of the other report pages, which share the style): the files in
 * `page/` (src/shared/pageAsset.ts). No run data is ever interpolated into them, so the script cannot be steered by an
 * answer's text. The page's CSP allows inline code and nothing else.
 */
import { pageScript, pageStyle } from '../shared/pageAsset';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export const REPORT_CSS = pageStyle(__dirname, 'report');

/** Filter by text and outcome, sort by clicking a header (numeric where the header says `data-num`). */
export const REPORT_SCRIPT = pageScript(__dirname, 'report');
