/**
 * The interactive reference at `/docs`: swagger-ui's own assets served from the installed
 * package (no CDN, so it works offline), pointed at the service's OpenAPI JSON.
 *
 * swagger-ui-express keeps the generated init script in a module-level variable; with two
 * services in one process the last `setup` would win. `serveFiles` builds a per-instance init
 * script instead, and the HTML is rendered once here with absolute asset paths so `/docs` works
 * with or without a trailing slash.
 */
import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';

export interface DocsOptions {
  docsPath: string;
  openapiPath: string;
  title: string;
}

export function docsRouter({ docsPath, openapiPath, title }: DocsOptions): Router {
  const base = docsPath.replace(/\/+$/, '');
  const html = swaggerUi
    .generateHTML(undefined, { swaggerUrl: openapiPath, customSiteTitle: title })
    .replaceAll('href="./', `href="${base}/`)
    .replaceAll('src="./', `src="${base}/`);
  const router = Router();
  router.get(base, (_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(html);
  });
  router.use(base, swaggerUi.serveFiles(undefined, { swaggerUrl: openapiPath }));
  return router;
}
