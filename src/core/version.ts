import { buildInfo } from './build-info.js';

/** The interface description's version is the release's (CHANGELOG.md): the OpenAPI document, discovery files and traces say it. */
export const API_VERSION = buildInfo.version;
