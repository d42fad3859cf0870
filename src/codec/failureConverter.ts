/*
 * Loaded by path (`DataConverter.failureConverterPath`: the only way a worker takes a failure converter), with a plain
 * `require`, also when tests run the TypeScript sources: so this file is written in the JavaScript subset both Node
 * and TypeScript read as CommonJS, without imports, type annotations or globals.
 *
 * With payload keys set, the message and stack trace of a failure raised by an activity or the client go into its
 * encoded attributes, which the codec encrypts like any payload; every side reads them back without options (the
 * workflow sandbox included). A payload codec's own error (a key id that is missing or wrong, by name only) stays in
 * clear: it is what the Web UI and history must show when the keys are the problem.
 */
/* eslint-disable prefer-rest-params, prefer-spread -- typed rest parameters are TypeScript, untyped ones an error */
module.exports = (function () {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DefaultFailureConverter } = require('@temporalio/common');
  const encoded = new DefaultFailureConverter({ encodeCommonAttributes: true });
  const clear = new DefaultFailureConverter();
  return {
    failureConverter: {
      errorToFailure: function () {
        // By name: the error's class may come from another copy of this package (tests load the sources twice).
        let codecError = false;
        for (let e = arguments[0], depth = 0; e && depth < 8 && !codecError; e = e.cause, depth++) codecError = e.name === 'PayloadCodecError';
        const converter = codecError ? clear : encoded;
        return converter.errorToFailure.apply(converter, arguments);
      },
      failureToError: function () {
        return encoded.failureToError.apply(encoded, arguments);
      },
    },
  };
})();
