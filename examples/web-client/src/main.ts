import { apiBaseUrl } from './api-base-url.js';
import { startWebClient } from './web-client.js';

startWebClient(apiBaseUrl(location.search));
