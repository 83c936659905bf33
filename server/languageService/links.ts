/**
 * Links in a spec: `templateId` opens the template it names, an overlay's `extends` its base, and `image` opens the image's page on its
 * registry when that registry is a well-known public one. Each kind is one `LinkProvider` (the key it reads
 * and how it turns the value into a target), so another kind of link is one more entry in `LINK_PROVIDERS`.
 */
import * as YAML from 'yaml';
import type { Catalog } from '../../core/endpointSpec/catalog/catalog';
import { EXTENDS_KEY } from '../../core/endpointSpec/overlay';
import { ownValue } from '../../core/endpointSpec/ownData';
import { isSpecFile } from '../../core/protocol/specFiles';
import { findProperty, type ScalarNode, type SpecDocument, type TextSpan } from '../../core/endpointSpec/tree';

export interface SpecLink {
  readonly span: TextSpan;
  readonly target: string;
  readonly tooltip: string;
}

export interface LinkContext {
  /** The spec file's own URI, for links relative to it. */
  readonly documentUri: string;
  readonly catalog?: Catalog;
  /** The URI the editor opens a template's text at; undefined when the editor cannot open such a URI. */
  readonly templateUri?: (id: string) => string;
}

interface LinkProvider {
  /** The top-level key whose string value is linked. */
  readonly key: string;
  link(value: string, context: LinkContext): { target: string; tooltip: string } | undefined;
}

const LINK_PROVIDERS: readonly LinkProvider[] = [
  {
    key: 'templateId',
    link: (id, context) => {
      const template = context.catalog?.templates.get(id);
      if (!template || !context.templateUri) return undefined;
      return { target: context.templateUri(id), tooltip: `Open template ${template.name} (${template.image})` };
    },
  },
  {
    key: EXTENDS_KEY,
    link: (target, context) => {
      if (!/^\.\.?\//.test(target) || !isSpecFile(target)) return undefined;
      return { target: new URL(target, context.documentUri).href, tooltip: `Open the base spec ${target}` };
    },
  },
  {
    key: 'image',
    link: (image) => {
      const page = imagePage(image);
      return page && { target: page.url, tooltip: `Open ${page.repository} on ${page.registry}` };
    },
  },
];

export function documentLinks(documents: readonly SpecDocument[], context: LinkContext): SpecLink[] {
  const links: SpecLink[] = [];
  for (const document of documents) {
    for (const provider of LINK_PROVIDERS) {
      const value = findProperty(document.root, provider.key)?.value;
      if (value?.kind !== 'scalar' || typeof value.value !== 'string' || value.length === 0) continue;
      const found = provider.link(value.value.trim(), context);
      if (found) links.push({ span: textOf(value), ...found });
    }
  }
  return links;
}

/** The link covers the value's text, not its quotes. */
function textOf(node: ScalarNode): TextSpan {
  return node.quoted && node.length >= 2 ? { offset: node.offset + 1, length: node.length - 2 } : node;
}

/** The text a template link opens: the template as the catalog holds it, read-only. */
export function templateText(catalog: Catalog | undefined, id: string): string {
  const template = catalog?.templates.get(id);
  if (!template) return `# The catalog holds no template ${JSON.stringify(id)} (yet): refresh the catalog and open the link again.\n`;
  return `# Template ${template.name}, as the catalog holds it (read-only)\n${YAML.stringify(template, { lineWidth: 0 })}`;
}

// ---------------------------------------------------------------- image references

interface ImagePage {
  readonly url: string;
  readonly registry: string;
  readonly repository: string;
}

/** Public registries whose repositories have a page at a URL made from the repository path alone. */
const REGISTRY_PAGES: Readonly<Record<string, { name: string; page: (repository: string) => string | undefined }>> = {
  'docker.io': { name: 'Docker Hub', page: dockerHubPage },
  'ghcr.io': { name: 'GitHub Container Registry', page: (repository) => `https://ghcr.io/${repository}` },
  'quay.io': { name: 'Quay', page: (repository) => `https://quay.io/repository/${repository}` },
  'public.ecr.aws': { name: 'Amazon ECR Public Gallery', page: (repository) => `https://gallery.ecr.aws/${repository}` },
  'mcr.microsoft.com': {
    name: 'Microsoft Artifact Registry',
    page: (repository) => `https://mcr.microsoft.com/artifact/mar/${repository}`,
  },
  'registry.gitlab.com': {
    name: 'GitLab',
    page: (repository) => `https://gitlab.com/${repository}/container_registry`,
  },
  'nvcr.io': { name: 'NVIDIA NGC', page: ngcPage },
};

const DOCKER_HUB_ALIASES = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']);

/** A repository path: lowercase components separated by `/`, each of letters, digits and single separators. */
const REPOSITORY = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;

/** The registry page of an image reference (`[registry/]repository[:tag][@digest]`), for well-known public registries. */
export function imagePage(image: string): ImagePage | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const tagColon = withoutDigest.indexOf(':', lastSlash + 1);
  const name = tagColon === -1 ? withoutDigest : withoutDigest.slice(0, tagColon);
  const slash = name.indexOf('/');
  const first = slash === -1 ? '' : name.slice(0, slash);
  // The first component names a registry only when it looks like a host: a dot, a port, or localhost.
  const hasRegistry = /[.:]/.test(first) || first === 'localhost';
  const host = hasRegistry ? first.toLowerCase() : 'docker.io';
  const repository = hasRegistry ? name.slice(slash + 1) : name;
  if (!REPOSITORY.test(repository)) return undefined;
  const registry = ownValue(REGISTRY_PAGES, DOCKER_HUB_ALIASES.has(host) ? 'docker.io' : host);
  const url = registry?.page(repository);
  return registry && url ? { url, registry: registry.name, repository } : undefined;
}

function dockerHubPage(repository: string): string {
  const official = repository.startsWith('library/')
    ? repository.slice('library/'.length)
    : repository.includes('/')
      ? undefined
      : repository;
  return official ? `https://hub.docker.com/_/${official}` : `https://hub.docker.com/r/${repository}`;
}

/** `nvidia/pytorch` and `nvidia/team/name` have catalog pages; other paths do not map to one. */
function ngcPage(repository: string): string | undefined {
  const parts = repository.split('/');
  if (parts.length === 2) return `https://catalog.ngc.nvidia.com/orgs/${parts[0]}/containers/${parts[1]}`;
  if (parts.length === 3) return `https://catalog.ngc.nvidia.com/orgs/${parts[0]}/teams/${parts[1]}/containers/${parts[2]}`;
  return undefined;
}
