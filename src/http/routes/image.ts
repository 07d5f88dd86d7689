import type { PreviewLogo } from '../../core/services/printing/preview-logo.js';
import type { StoreLogo } from '../../core/services/printing/store-logo.js';
import { IMAGE_BODY_LIMIT, type RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import {
  ImageStoreRequest,
  ImageStoreResponse,
  LogoPreviewRequest,
  LogoPreviewResponse,
} from '../schemas/printing.js';

/** `POST /api/image/preview` (read-only) and `POST /api/image/store` (the logo, in the CHDÚ). */
export function imageRoutes(deps: { preview: PreviewLogo; store: StoreLogo }): RoutePlugin {
  return (app) => {
    app.post(
      '/api/image/preview',
      {
        bodyLimit: IMAGE_BODY_LIMIT,
        schema: {
          tags: ['printer'],
          summary: 'Preview a logo as printed and as on the electronic receipt',
          description: 'Only the variants asked for. A picture that cannot be read answers 701 (HTTP 500).',
          body: LogoPreviewRequest,
          response: { 200: LogoPreviewResponse, ...errorResponses },
        },
      },
      async (request) => deps.preview.execute(request.body),
    );
    app.post(
      '/api/image/store',
      {
        bodyLimit: IMAGE_BODY_LIMIT,
        schema: {
          tags: ['printer'],
          summary: 'Store the logo in the CHDÚ (null removes it)',
          description: 'From then on the logo heads every paper and electronic receipt.',
          body: ImageStoreRequest,
          response: { 200: ImageStoreResponse, ...errorResponses },
        },
      },
      async (request) => deps.store.execute(request.body.imageData),
    );
  };
}
