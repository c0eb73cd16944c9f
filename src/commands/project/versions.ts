/** Version sources: the manifests that declare a project's name and version. */
import { dig, type ManifestReader, str } from './manifests.js';
import type { Scan } from './scan.js';

interface VersionEntry {
  kind: string;
  path: string;
  name: string | null;
  version: string | null;
  /** high: a parsed field; medium: an assignment found by pattern (gemspec, mix.exs, Gradle) or an inherited one; low: no version found. */
  confidence: 'high' | 'medium' | 'low';
}

function entry(kind: string, path: string, name: string | null, version: string | null, found: 'high' | 'medium'): VersionEntry {
  return { kind, path, name, version, confidence: version === null ? 'low' : found };
}

/** The first string assigned by one of the patterns (group 1). */
function firstMatch(text: string, patterns: RegExp[]): string | null {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m?.[1]) return m[1];
  }
  return null;
}

export async function versionSources(scan: Scan, reader: ManifestReader): Promise<VersionEntry[]> {
  const out: VersionEntry[] = [];
  for (const file of scan.files) {
    if (file.category !== 'packages') continue;
    const path = file.path;
    switch (file.kind) {
      case 'cargo': {
        const toml = await reader.toml(path);
        if (toml === null) break;
        const pkg = dig(toml, 'package');
        if (pkg !== undefined) {
          const own = str(dig(pkg, 'version'));
          // `version.workspace = true` inherits [workspace.package] version (here or in the root manifest).
          const root = path === 'Cargo.toml' ? toml : await reader.toml('Cargo.toml');
          const inherited =
            dig(pkg, 'version', 'workspace') === true
              ? (str(dig(toml, 'workspace', 'package', 'version')) ?? str(dig(root, 'workspace', 'package', 'version')))
              : null;
          out.push(entry('cargo', path, str(dig(pkg, 'name')), own ?? inherited, own !== null ? 'high' : 'medium'));
        } else if (dig(toml, 'workspace', 'package', 'version') !== undefined) {
          out.push(entry('cargo', path, null, str(dig(toml, 'workspace', 'package', 'version')), 'high'));
        }
        break;
      }
      case 'npm': {
        const json = await reader.json(path);
        if (json !== null) out.push(entry('npm', path, str(json.name), str(json.version), 'high'));
        break;
      }
      case 'python': {
        const toml = await reader.toml(path);
        if (toml === null) break;
        const project = dig(toml, 'project');
        const poetry = dig(toml, 'tool', 'poetry');
        if (project !== undefined) out.push(entry('python', path, str(dig(project, 'name')), str(dig(project, 'version')), 'high'));
        else if (poetry !== undefined) out.push(entry('python', path, str(dig(poetry, 'name')), str(dig(poetry, 'version')), 'high'));
        break;
      }
      case 'composer': {
        const json = await reader.json(path);
        if (json !== null) out.push(entry('composer', path, str(json.name), str(json.version), 'high'));
        break;
      }
      case 'dart': {
        const yaml = await reader.yaml(path);
        if (yaml !== null) out.push(entry('dart', path, str(yaml.name), str(yaml.version), 'high'));
        break;
      }
      case 'gemspec': {
        const text = await reader.text(path);
        if (text === null) break;
        const name = firstMatch(text, [/\.name\s*=\s*["']([^"']+)["']/]);
        const version = firstMatch(text, [/\.version\s*=\s*["']([^"']+)["']/]);
        out.push(entry('gemspec', path, name, version, 'medium'));
        break;
      }
      case 'mix': {
        const text = await reader.text(path);
        if (text === null) break;
        const name = firstMatch(text, [/\bapp:\s*:(\w+)/]);
        const version = firstMatch(text, [/\bversion:\s*"([^"]+)"/]);
        out.push(entry('mix', path, name, version, 'medium'));
        break;
      }
      case 'dotnet': {
        const xml = await reader.xml(path);
        if (xml === null) break;
        const groups = dig(xml, 'Project', 'PropertyGroup');
        const list = Array.isArray(groups) ? groups : [groups];
        let version: string | null = null;
        let name: string | null = null;
        for (const group of list) {
          version ??= str(dig(group, 'Version')) ?? str(dig(group, 'VersionPrefix'));
          name ??= str(dig(group, 'PackageId')) ?? str(dig(group, 'AssemblyName'));
        }
        const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.(cs|fs|vb)proj$/, '');
        out.push(entry('dotnet', path, name ?? base, version, 'high'));
        break;
      }
      case 'maven': {
        const xml = await reader.xml(path);
        if (xml === null) break;
        const project = dig(xml, 'project');
        const own = str(dig(project, 'version'));
        const parent = str(dig(project, 'parent', 'version'));
        out.push(entry('maven', path, str(dig(project, 'artifactId')), own ?? parent, own !== null ? 'high' : 'medium'));
        break;
      }
      case 'gradle': {
        const text = await reader.text(path);
        if (text === null) break;
        const version = firstMatch(text, [/^\s*version\s*=\s*["']([^"']+)["']/m, /^\s*version\s+["']([^"']+)["']/m]);
        const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
        let name: string | null = null;
        for (const settings of ['settings.gradle', 'settings.gradle.kts']) {
          const s = await reader.text(`${dir}${settings}`);
          if (s !== null) name ??= firstMatch(s, [/rootProject\.name\s*=\s*["']([^"']+)["']/]);
        }
        out.push(entry('gradle', path, name, version, 'medium'));
        break;
      }
    }
  }
  return out;
}
