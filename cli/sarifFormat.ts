/**
 * `validate --format sarif`: a SARIF 2.1.0 log for code scanning (github/codeql-action/upload-sarif and any
 * other SARIF viewer). Each diagnostic code is a rule, described in the words of docs/rules.md (the same
 * list the page is generated from) and linked to its section there; each problem is a result with its
 * region (1-based, UTF-16 columns as the editor counts them) in a file named relative to the run's folder.
 * A finding the team silenced stays a result, with a suppression saying how (an ignore comment in the spec is
 * `inSource`, an exception of the policy `external`) and why, so code scanning shows it as dismissed.
 * What stopped a file from being checked, or the catalog checks from running, is not a problem in a spec:
 * it is a notification of the run.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import type { Severity } from '../core/endpointSpec/problem';
import { formatJsonPath } from '../core/endpointSpec/tree';
import { everyDocumentedCode, type SuppressedDiagnostic } from '../core/policy';
import { packageInfo, type PackageInfo } from '../core/util/packageInfo';
import { reportPath, type ValidateReport } from './validateReport';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Where relative artifact locations are resolved from: the run's folder, named in the log's run. */
const SOURCE_ROOT = '%SRCROOT%';

const LEVELS: Readonly<Record<Severity, Result.level>> = { error: 'error', warning: 'warning', information: 'note' };

/** Every code `validate` can report, the policy's too, in the order of docs/rules.md (the editor's own codes are never reported here). */
function rules(info: PackageInfo): ReportingDescriptor[] {
  return everyDocumentedCode()
    .filter((code) => code.kind !== 'editor')
    .map((code) => {
      const helpUri = `${info.repositoryUrl}/blob/main/docs/rules.md#${code.code}`;
      return {
        id: code.code,
        shortDescription: { text: code.description },
        helpUri,
        help: { text: `${code.description} ${helpUri}`, markdown: `${code.description}\n\n[docs/rules.md: ${code.code}](${helpUri})` },
        defaultConfiguration: { level: LEVELS[code.severity as Severity] },
        properties: { tags: [code.kind] },
      };
    });
}

/** A file as an artifact location: relative to the run's folder when inside it, else its file URL. */
function artifactLocation(base: string, file: string): { uri: string; uriBaseId?: string } {
  const path = reportPath(base, file);
  if (isAbsolute(path)) return { uri: pathToFileURL(path).href };
  return { uri: path.split('/').map(encodeURIComponent).join('/'), uriBaseId: SOURCE_ROOT };
}

function location(base: string, file: string, d?: SpecDiagnostic): Location {
  if (!d) return { physicalLocation: { artifactLocation: artifactLocation(base, file) } };
  const { start, end } = d.range;
  return {
    physicalLocation: {
      artifactLocation: artifactLocation(base, file),
      region: { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 },
    },
    logicalLocations: [{ fullyQualifiedName: formatJsonPath(d.path) }],
  };
}

const isSuppressed = (d: SpecDiagnostic): d is SuppressedDiagnostic => 'suppression' in d;

export function renderSarif(report: ValidateReport, info: PackageInfo = packageInfo()): string {
  const driverRules = rules(info);
  const ruleIndex = new Map(driverRules.map((rule, index) => [rule.id, index]));
  const results: Result[] = [];
  const notifications: Notification[] = [];
  for (const outcome of report.outcomes) {
    if ('unreadable' in outcome) {
      notifications.push({
        level: 'error',
        message: { text: outcome.unreadable },
        descriptor: { id: outcome.code },
        locations: [location(report.base, outcome.file)],
      });
      continue;
    }
    for (const d of [...outcome.diagnostics, ...(outcome.suppressed ?? [])]) {
      const index = ruleIndex.get(d.code);
      const suppression = isSuppressed(d) ? d.suppression : undefined;
      results.push({
        ruleId: d.code,
        ...(index === undefined ? {} : { ruleIndex: index }),
        level: LEVELS[d.severity],
        message: { text: d.message },
        locations: [location(report.base, outcome.file, d)],
        ...(suppression ? { suppressions: [{ kind: suppression.kind, justification: suppression.reason }] } : {}),
      });
    }
  }
  if (report.catalogSkipped !== undefined)
    notifications.push({ level: 'note', message: { text: report.catalogSkipped }, descriptor: { id: 'catalog-skipped' } });

  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: info.name, version: info.version, informationUri: info.repositoryUrl, rules: driverRules } },
        originalUriBaseIds: { [SOURCE_ROOT]: { uri: pathToFileURL(report.base.endsWith('/') ? report.base : `${report.base}/`).href } },
        invocations: [
          {
            executionSuccessful: !report.outcomes.some((o) => 'unreadable' in o),
            ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
