/**
 * The process-wide live catalog: the current immutable snapshot plus change listeners. Enabling or
 * disabling a domain persists first and swaps the snapshot only after the write succeeded.
 */
import type { CatalogView, HostApi } from '../catalog/descriptor.js';
import { CatalogSnapshot, type Definition } from '../catalog/registry.js';
import { readPluginSettings, updateDisabledDomains, watchPluginSettings } from '../plugins/settings.js';
import type { VaultStore } from '../secrets/types.js';

export type CatalogListener = (snapshot: CatalogSnapshot) => void;

export class LiveCatalog implements HostApi {
  private current: CatalogSnapshot;
  private readonly listeners = new Set<CatalogListener>();

  constructor(
    definition: Definition,
    disabledDomains: readonly string[],
    readonly pluginSettingsPath: string,
    // The vault opens its file per call, so holding it costs nothing for commands that never use it.
    readonly vault: VaultStore,
  ) {
    this.current = new CatalogSnapshot(definition, disabledDomains, 1);
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
    this.apply(result.disabled);
    return result;
  }

  /**
   * Follows plugins.json as other processes change it (`ah plugins disable` from a shell while a
   * server runs): each change is re-read and published like a change made here. An unreadable
   * file keeps the current state (the writer's own command reports the problem).
   */
  watchSettings(): () => void {
    return watchPluginSettings(this.pluginSettingsPath, () => {
      readPluginSettings(this.pluginSettingsPath).then(
        (settings) => this.apply(settings.disabled_domains),
        () => undefined,
      );
    });
  }

  private apply(disabled: readonly string[]): void {
    const before = this.current.disabledDomains.join('\n');
    const next = this.current.withDisabled(disabled);
    if (next.disabledDomains.join('\n') === before) return;
    this.current = next;
    for (const listener of this.listeners) {
      try {
        listener(next);
      } catch {
        // A failing listener (e.g. a dead MCP peer) must not fail the call that changed the catalog.
      }
    }
  }
}
