/**
 * The process-wide live catalog: the current immutable snapshot plus change listeners. Enabling or
 * disabling a domain persists first and swaps the snapshot only after the write succeeded.
 */
import type { CatalogView, HostApi } from '../catalog/descriptor.js';
import { CatalogSnapshot, type Definition } from '../catalog/registry.js';
import { updateDisabledDomains } from '../plugins/settings.js';
import type { VaultStore } from '../secrets/types.js';

export type CatalogListener = (snapshot: CatalogSnapshot) => void;

export class LiveCatalog implements HostApi {
  private current: CatalogSnapshot;
  private readonly listeners = new Set<CatalogListener>();
  readonly pluginSettingsPath: string;
  readonly vault: VaultStore;

  constructor(definition: Definition, disabledDomains: readonly string[], pluginSettingsPath: string, vault: VaultStore) {
    this.current = new CatalogSnapshot(definition, disabledDomains, 1);
    this.pluginSettingsPath = pluginSettingsPath;
    // The vault opens its file per call, so holding it costs nothing for commands that never use it.
    this.vault = vault;
  }

  snapshot(): CatalogSnapshot {
    return this.current;
  }

  catalog(): CatalogView {
    return this.current;
  }

  onChange(listener: CatalogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async setDisabledDomains(update: (current: readonly string[]) => string[]): Promise<{ disabled: string[]; changed: boolean }> {
    const result = await updateDisabledDomains(this.pluginSettingsPath, update);
    const before = this.current.disabledDomains.join('\n');
    const next = this.current.withDisabled(result.disabled);
    if (next.disabledDomains.join('\n') !== before) {
      this.current = next;
      for (const listener of this.listeners) {
        try {
          listener(next);
        } catch {
          // A failing listener (e.g. a dead MCP peer) must not fail the call that changed the catalog.
        }
      }
    }
    return result;
  }
}
