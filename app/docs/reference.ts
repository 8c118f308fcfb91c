import { docsModel, type OpenApiDocument } from '@/lib/docs/routes';
import { openApiDocument } from '@/lib/openapi';

/** The API reference as /docs and its route pages show it, made from openapi.json. */
export const reference = () => docsModel(openApiDocument() as unknown as OpenApiDocument);

/** Each route's page: /docs/api/<anchor>. */
export const routePath = (anchor: string) => `/docs/api/${anchor}`;
