import type { Command } from 'commander';
import { withExamples } from '../../helpText';
import type { LabelsAgreementFlags } from './agreement';
import type { LabelsExportFlags } from './export';
import type { LabelsImportFlags } from './import';

export function register(program: Command): void {
  const labels = withExamples(program
    .command('labels')
    .description("People's pass/fail labels of answers, kept in the results store: every later run and `sitechat grade` of the site applies them first"), [
    ['sitechat labels import golden.csv', 'store the labels of a file kept in git'],
    ['sitechat labels export golden.csv', 'write every label back out'],
    ['sitechat labels agreement --run latest', "how often each grader agrees with the labels on the latest run's rows"],
  ], 'store');

  withExamples(labels
    .command('export')
    .description('Write every label (of a site) to a CSV or JSONL file, to keep golden labels in git'), [
    ['sitechat labels export labels.csv', 'every label, one a line: key, site, question, references, rubric, answer, verdict, note, by, at'],
    ['sitechat labels export golden/my-site.jsonl --site my-site', "one site's labels as JSONL"],
  ], 'store')
    .argument('<file>', 'the file to write: .csv, .tsv, .jsonl or .ndjson (replaced when it exists)')
    .option('--site <id>', 'only the labels of this site')
    .action(async (file: string, flags: LabelsExportFlags) => {
      const { labelsExportAction } = await import('./export.js');
      process.exitCode = await labelsExportAction(file, flags);
    });

  withExamples(labels
    .command('import')
    .description('Read labels from a CSV or JSONL file into the results store; the file is validated whole first, and nothing is written when a line is wrong'), [
    ['sitechat labels import labels.csv', 'columns site, question, references (`|`-separated), rubric, answer, verdict (pass/fail), note, by, at; key optional'],
    ['sitechat labels import golden/my-site.jsonl', 'the same as JSON objects, one a line'],
  ], 'store')
    .argument('<file>', 'a .csv, .tsv, .jsonl or .ndjson file as `labels export` writes it')
    .option('--delimiter <char>', 'CSV delimiter, when auto-detection is not right')
    .action(async (file: string, flags: LabelsImportFlags) => {
      const { labelsImportAction } = await import('./import.js');
      process.exitCode = await labelsImportAction(file, flags);
    });

  withExamples(labels
    .command('agreement')
    .description("Each grader's agreement with the labels (reference at several thresholds, contains, F1, the judge), its coverage, and the reference threshold the labels support"), [
    ['sitechat labels agreement', 'every label, graded on its (normalized) answer'],
    ['sitechat labels agreement --run latest --site my-site', "the labelled rows of the site's latest run: its answers and its judge's verdicts"],
    ['sitechat labels agreement --json', 'the same figures as JSON'],
  ], 'store')
    .option('--site <id>', 'only the labels of this site')
    .option('--run <runId|latest>', "measure on a run's labelled rows (their raw answers, and the judge verdicts recorded or cached for them)")
    .option('--json', 'print the figures as JSON on stdout')
    .action(async (flags: LabelsAgreementFlags) => {
      const { labelsAgreementAction } = await import('./agreement.js');
      process.exitCode = await labelsAgreementAction(flags);
    });
}
