import type { MapConfigResponse } from '@cena-metra/contract';
import { layers, namedFlavor } from '@protomaps/basemaps';
import type { GeoJSONSourceSpecification, StyleSpecification } from 'maplibre-gl';
import countries from './countries.json';
import type { Bounds } from './map-data';

/**
 * Russia's outline's bounds, Kaliningrad to Chukotka (its part past the 180th meridian carried east, as the
 * outline carries it): the map's view when no project has coordinates.
 */
export const RUSSIA_VIEW: Bounds = [19.6, 41.1, 190.2, 81.3];

/**
 * The basemap under «Рынок»'s points (issue 46): our PMTiles archive drawn with Protomaps' style in Russian
 * (its labels in the browser's own fonts: no glyphs, no sprite, nothing from another origin), an operator's
 * style by its URL, or — with neither — the countries' outlines so the points sit on land.
 */
export function basemapStyle(
  config: MapConfigResponse,
  dark: boolean,
  origin: string,
): StyleSpecification | string {
  if (config.basemap === 'style' && config.url) return config.url;
  if (config.basemap === 'pmtiles' && config.url)
    return {
      version: 8,
      sources: {
        protomaps: {
          type: 'vector',
          url: `pmtiles://${origin}${config.url}`,
          attribution: '© участники OpenStreetMap',
        },
      },
      layers: layers('protomaps', namedFlavor(dark ? 'dark' : 'light'), { lang: 'ru' }),
    };
  return outlineStyle(dark);
}

/**
 * The countries around Russia as land on a sea (Natural Earth 1:110m through world-atlas): one tile of them
 * at every zoom (the outlines are 1:110m, overzoomed as drawn) and their borders drawn by the fill itself —
 * in headless Chromium each tile that comes and each program a layer needs is a frame of software WebGL
 * more (~0.1 s each), so one source tile and two programs, not a tile pyramid and a line layer's program.
 */
export function outlineStyle(dark: boolean): StyleSpecification {
  return {
    version: 8,
    sources: {
      countries: {
        type: 'geojson',
        data: countries as GeoJSONSourceSpecification['data'],
        maxzoom: 0,
        tolerance: 0,
      },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': dark ? '#0b1220' : '#dbeafe' } },
      {
        id: 'land',
        type: 'fill',
        source: 'countries',
        paint: {
          'fill-color': [
            'case',
            ['get', 'russia'],
            dark ? '#1e293b' : '#ffffff',
            dark ? '#172033' : '#f1f5f9',
          ],
          'fill-outline-color': dark ? '#475569' : '#94a3b8',
        },
      },
    ],
  };
}
