import { runCustomGrader } from '../src/grading/custom';
import type { GradeResult } from '../src/grading/types';
import type { CustomGradeInput } from './types';

export function gradeActivities() {
  return {
    /** Custom graders are user code (files, Node APIs), so they run here and never inside the workflow. */
    async gradeCustom({ row, answer, modules }: CustomGradeInput): Promise<GradeResult> {
      const assertions = [];
      for (const { module, threshold } of modules) assertions.push(await runCustomGrader(module, row, answer, threshold));
      return { graded: assertions.length > 0, pass: assertions.every((a) => a.pass), assertions };
    },
  };
}
