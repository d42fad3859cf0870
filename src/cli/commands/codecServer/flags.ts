/** Flags of `sitechat codec-server`, as commander hands them over (validated by the action). */
export interface CodecServerFlags {
  port: string;
  uiOrigin: string[];
}

/** The Web UI of `sitechat server` (and of `temporal server start-dev`), under both names a browser may use. */
export const DEFAULT_UI_ORIGINS = ['http://127.0.0.1:8233', 'http://localhost:8233'];
