/** The variable that holds the payload keys of every sitechat process (workers, CLI, codec server). */
export const PAYLOAD_KEYS_ENV = 'SITECHAT_PAYLOAD_KEYS';

/** SITECHAT_PAYLOAD_KEYS cannot be used: a settings error, found before anything is started (exit 2). */
export class PayloadKeysError extends Error {
  override name = 'PayloadKeysError';
}

/**
 * A payload this process cannot decode: it is encrypted and this process has no keys, none under its key id, or
 * the key under that id does not open it. Never answered by passing the payload on as it is.
 */
export class PayloadCodecError extends Error {
  override name = 'PayloadCodecError';

  constructor(message: string, readonly keyId?: string) {
    super(message);
  }
}
