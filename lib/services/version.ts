import packageJson from '../../package.json' with { type: 'json' };

/** The service version, `major.minor.patch` from package.json. */
export const serviceVersion: string = packageJson.version;
