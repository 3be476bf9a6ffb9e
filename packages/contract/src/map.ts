import { z } from 'zod';

// «Рынок»'s map (issue 46): what basemap the server offers.

export const mapConfigResponseSchema = z.object({
  /** `pmtiles`: our own archive at `url` (Protomaps' style drawn over it); `style`: an operator's style at
   * `url`; `none`: no basemap, the country's outline under the points */
  basemap: z.enum(['pmtiles', 'style', 'none']),
  url: z.string().nullable(),
});
export type MapConfigResponse = z.infer<typeof mapConfigResponseSchema>;
