/**
 * Environments in the editor: one spec deployed as staging and prod through overlays. The clients each spec
 * file deploys with (its environment's profile) and the language status that says which. Deploy, Diff, Compare
 * Environments and the drift lenses take the same clients (client/deploy/), which import from here, never the
 * other way.
 */
export { SpecClients } from './clients';
export { EnvironmentLanguageStatus } from './languageStatus';
export { SpecFiles } from './specFile';
