/** The vault vocabulary lives in the catalog (descriptors name the store); re-exported for secrets/. */
export * from '../catalog/vault.js';
