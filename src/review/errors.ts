/** A save the review server refuses (unknown run or row, bad verdict): HTTP 400/404, nothing written. */
export class ReviewRequestError extends Error {
  constructor(message: string, readonly status: 400 | 404 = 400) {
    super(message);
    this.name = 'ReviewRequestError';
  }
}

/** `sitechat review RUN_ID` names no run the store has, or one that cannot be reviewed. */
export class ReviewRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReviewRunError';
  }
}
