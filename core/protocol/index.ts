/**
 * What the language server, the editor and the CLI share about spec files and about the messages
 * between server and editor. Free of `vscode` and of the LSP libraries, so every bundle can import it.
 */
export {
  isPolicyFile,
  isSpecFile,
  JSON_SPEC_FILE_GLOB,
  POLICY_FILE_GLOB,
  SPEC_DOCUMENT_PATTERNS,
  SPEC_FILE_DOCUMENTS,
  SPEC_FILE_GLOB,
  SPEC_FILE_PATTERN,
  SPEC_FILE_SUFFIXES,
  specFileName,
  specFormatOf,
  splitSpecFileName,
  YAML_SPEC_FILE_GLOB,
} from './specFiles';
export {
  CATALOG_STATUS_NOTIFICATION,
  LOCATE_PATHS_REQUEST,
  onNotification,
  onRequest,
  onRequestWith,
  REFRESH_CATALOG_REQUEST,
  sendNotification,
  sendRequest,
  sendRequestWith,
  SETTINGS_SECTION,
  SPEC_FILE_REQUEST,
} from './messages';
export type {
  CatalogStatus,
  InlayHintSettings,
  LocatedPaths,
  LocatePathsParams,
  ServerInitializationOptions,
  SpecDocumentFacts,
  SpecEnvironmentFacts,
  SpecFileFacts,
  SpecFileParams,
  SpecOverlayFacts,
} from './messages';
export { ENVIRONMENT_FROM_PARENT, environmentMessage } from './serverStart';
export type { ProfileVariables } from './serverStart';
