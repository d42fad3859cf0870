/**
 * `--overlap` values as typed on the command line. Apart from their mapping to Temporal's policies (./policy), so that
 * registering the `schedule` command's options loads no Temporal client: `sitechat --help` stays fast.
 */
export const OVERLAP_FLAGS = ['skip', 'buffer-one', 'buffer-all', 'cancel-other', 'terminate-other', 'allow-all'] as const;
export type OverlapFlagName = (typeof OVERLAP_FLAGS)[number];
