import manifest from '../../package.json' with { type: 'json' };

/**
 * The version `plangate --version` prints: package.json's, bundled into dist/ at build time, so it
 * is the version of the code that runs, wherever the command is started from.
 */
export const plangateVersion: string = manifest.version;
