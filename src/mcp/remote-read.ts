/**
 * The remote catalog's tools (remote.ts), read from the service's OpenAPI document
 * (openapi-source.ts) on the first request that needs them and kept; a failed read is tried
 * again by the next request.
 */
import { type OpenApiLike, fromOpenApi } from './openapi-source.js';
import type { RemoteService } from './remote-call.js';
import { type GeneratedTool, generateTools } from './tools.js';

/** The tools read are another service's: said as it is, not as "cannot read the tools". */
class NotTheService extends Error {}

/** `identity`: what the service must be (RemoteToolsOptions in remote.ts). */
export function remoteToolReader(
  service: RemoteService,
  openapiPath: string,
  identity?: { service: string; operationId: string; setting: string },
): () => Promise<Map<string, GeneratedTool>> {
  const { base, fetch: fetchFn } = service;
  let loading: Promise<Map<string, GeneratedTool>> | undefined;

  return function tools(): Promise<Map<string, GeneratedTool>> {
    loading ??= (async () => {
      const res = await fetchFn(`${base}${openapiPath}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(service.timeoutMs),
      });
      const notIt = (why: string) =>
        identity &&
        new NotTheService(
          `the service at ${base} is not a ${identity.service}: ${why}; set ${identity.setting} to the ${identity.service}'s address`,
        );
      // the feedback board serves its document elsewhere: 404 here
      const what = `GET ${openapiPath} answered ${res.status}`;
      if (!res.ok) throw (res.status === 404 && notIt(what)) || new Error(what);
      const generated = generateTools(fromOpenApi((await res.json()) as OpenApiLike));
      if (identity && !generated.some((t) => t.tool.name === identity.operationId)) {
        throw notIt(`its ${openapiPath} has no ${identity.operationId} operation`);
      }
      return new Map(generated.map((t) => [t.tool.name, t]));
    })().catch((error: unknown) => {
      loading = undefined; // the next request tries again
      if (error instanceof NotTheService) throw error;
      throw new Error(
        `cannot read the tools of the service at ${base}: ${(error as Error).message}`,
      );
    });
    return loading;
  };
}
