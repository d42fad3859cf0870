/*
 * Loaded by path (`DataConverter.failureConverterPath`: the only way a worker takes a failure converter), with a plain
 * `require`, also when tests run the TypeScript sources: so this file is written in the JavaScript subset both Node
 * and TypeScript read as CommonJS, without imports or type annotations.
 *
 * With payload keys set, the message and stack trace of a failure raised by an activity or the client go into its
 * encoded attributes, which the codec encrypts like any payload. Every side reads them back without options (the
 * workflow sandbox included).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
module.exports = { failureConverter: new (require('@temporalio/common').DefaultFailureConverter)({ encodeCommonAttributes: true }) };
