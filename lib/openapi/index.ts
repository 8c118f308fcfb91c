// openapi.json: the document (./document.ts), built from the zod schemas that validate requests.
export { documentedSchemas, openApiDocument } from './document';
