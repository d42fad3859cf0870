// A custom grader (see docs/grading.md, "Custom graders"): fails answers that brush the user off or shout.
// `row` is the dataset row, `answer` is { answer, confidenceScore?, latencyMs? }.
const BRUSH_OFFS = [/\bjust google it\b/i, /\bread the (?:fine )?manual\b/i, /\bnot my problem\b/i, /\bobviously\b/i];

exports.grade = (row, answer) => {
  const text = answer.answer;
  const brushOff = BRUSH_OFFS.find((pattern) => pattern.test(text));
  if (brushOff) return { pass: false, reason: `brushes the user off (${brushOff.source})` };
  const letters = text.replace(/[^A-Za-z]/g, '');
  const shouting = letters.length >= 20 && letters === letters.toUpperCase();
  return shouting ? { pass: false, reason: 'written in capitals' } : { pass: true, reason: 'no brush-off, no capitals' };
};
