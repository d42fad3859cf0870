/** The graders the bench compares live in src, so `sitechat labels agreement` measures the same ones. */
export * from '../src/grading/agreementGraders';
