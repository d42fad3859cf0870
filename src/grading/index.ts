/**
 * Workflow-safe grading surface: pure, deterministic graders with no Node imports.
 * Custom (module-loading) graders live in `./custom` and are deliberately not exported here.
 */
export * from '../domain/grade';
export { assertionsForRow, comparesWithExpected, REFERENCE_BASED_TYPES, usesRowRubric, type RowAssertionColumns } from './assertions';
export { combineGrades, DEFAULT_THRESHOLDS, evaluateAssertion, gradeAnswer, verdictOf } from './grade';
export { maxLatency, minConfidence } from './metrics';
export { foldCase } from '../shared/text/fold';
export { collapseWhitespace, normalizeForEquals, rougeTokens, squadTokens } from './normalize';
export { lcsLength, rougeL, rougeLScore, tokenF1, tokenF1Score } from './overlap';
export {
  ALL_WORDS_UP_TO, compareWithReference, comparisonPasses, PART_OF_MIN_SHARE, prepareAnswer, referenceAnswer,
  type PreparedAnswer, type ReferenceComparison, type ReferenceRule,
} from './reference';
export { bestOverReferences, formatReferences, parseReferences } from './references';
export { isStopWord, referenceTokens } from './referenceText';
export { numberWordsToDigits } from './numberWords';
export { compileRegex, parseRegexLiteral, type RegexSource } from './regex';
export { levenshtein, levenshteinDistance, levenshteinSimilarity } from './similarity';
export { contains, containsAll, containsAny, equals, icontains, notContains, regex } from './textGraders';
export { decisionOf, feedbackFor, gradedResult, gradeRow, GradingError, type Escalator, type ExternalGrader, type GradeRowOptions } from './gradeRow';
export { escalationRequest, escalationResult } from './escalation';
export { FAIL_EVIDENCE, failEvidence, type EvidenceOptions, type FailEvidence, type FailFinding } from './referenceEvidence';
