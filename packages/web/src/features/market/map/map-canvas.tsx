import type { MapConfigResponse } from '@cena-metra/contract';
import type { GeoJSONSource, MapGeoJSONFeature, MapLayerMouseEvent } from 'maplibre-gl';
import * as maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { Protocol } from 'pmtiles';
import { type Ref, useEffect, useImperativeHandle, useLayoutEffect, useRef } from 'react';
import type { MapPoint } from '../lib/map-option';
import {
  type Bounds,
  fitNeeded,
  type GivenPoints,
  GREY,
  type PointCollection,
  pointsBounds,
  pointsChange,
  SCALE,
} from './map-data';
import { clusterLabels, drawLabels } from './map-labels';
import { basemapStyle, RUSSIA_VIEW } from './map-style';

/** What the card asks of the drawn map: its picture (the canvas as drawn). */
export interface MapHandle {
  canvas(): HTMLCanvasElement | null;
  /** the clusters' counts drawn over it (map-labels.ts), of the same size */
  labels(): HTMLCanvasElement | null;
}

// MapLibre's worker (one of our own assets: the library would look for it beside its module) started as this
// chunk loads — «Рынок» asks for the chunk as it opens, so the worker is up before the page's data come — and
// the pmtiles:// protocol (range requests to our own /tiles/), once per page
maplibregl.setWorkerUrl(workerUrl);
maplibregl.prewarm();
maplibregl.addProtocol('pmtiles', new Protocol().tile);

/**
 * «Рынок»'s map drawn with MapLibre GL (issue 46): the basemap of `config`, the projects as a GeoJSON source
 * clustered at low zoom (a cluster's circle and count; a click zooms into it), a project's circle by its
 * stock and coloured by `range`, its tooltip, a click that opens it; the view's bounds told on every move.
 * The DOM says what is drawn (points, clusters, the unclustered circles' pixels) for tests and readers.
 */
export default function MapCanvas({
  config,
  dark,
  points,
  data,
  range,
  tooltip,
  onOpen,
  onView,
  handle,
  waiting = false,
}: {
  config: MapConfigResponse;
  /** the page's data not come yet: the map is made, not «drawn» (its points are to come) */
  waiting?: boolean;
  dark: boolean;
  points: readonly MapPoint[];
  data: PointCollection;
  range: [number, number];
  /** the tooltip's HTML of a point (its place in the answer) */
  tooltip: (at: number) => string;
  onOpen: (id: number) => void;
  onView: (bounds: Bounds) => void;
  handle: Ref<MapHandle>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<maplibregl.Map | null>(null);
  const ready = useRef(false);
  /** what the source and the circles' paint hold (given again only when it changed: map-data.ts) */
  const given = useRef<GivenPoints | null>(null);
  const latest = useRef({ data, range, points, tooltip, onOpen, onView, waiting });
  latest.current = { data, range, points, tooltip, onOpen, onView, waiting };
  const counts = useRef<HTMLCanvasElement | null>(null);
  useImperativeHandle(
    handle,
    () => ({ canvas: () => map.current?.getCanvas() ?? null, labels: () => counts.current }),
    [],
  );

  // the map, made again when its basemap changes (the style holds the points' layers); made as the element
  // is (a layout effect): its style, worker and tiles start before the page's other effects and its paint.
  // The points' source and layers are added as soon as the style is read ('style.load'), not once the basemap
  // is drawn ('load'): the points are clustered in the worker while the basemap's tiles are made
  useLayoutEffect(() => {
    const el = box.current!;
    const bounds = pointsBounds(latest.current.points) ?? RUSSIA_VIEW;
    const m = new maplibregl.Map({
      container: el,
      style: basemapStyle(config, dark, window.location.origin),
      bounds: [bounds[0], bounds[1], bounds[2], bounds[3]],
      fitBoundsOptions: { padding: 24, maxZoom: 12 },
      attributionControl: { compact: true },
      // the picture of the map for «Скачать PNG»
      canvasContextAttributes: { preserveDrawingBuffer: true },
      fadeDuration: 0,
    });
    map.current = m;
    // the clusters' counts: a 2D canvas over the map's, drawn again after each of its frames
    const overlay = document.createElement('canvas');
    overlay.className = 'pointer-events-none absolute top-0 left-0';
    overlay.dataset.testid = 'market-map-counts';
    m.getCanvasContainer().appendChild(overlay);
    counts.current = overlay;
    m.on('render', () => {
      const { width, height, style } = m.getCanvas();
      if (overlay.width !== width || overlay.height !== height) {
        overlay.width = width;
        overlay.height = height;
        overlay.style.width = style.width;
        overlay.style.height = style.height;
      }
      if (!ready.current) return;
      const labels = clusterLabels(m, 'projects');
      drawLabels(overlay, labels, m.getPixelRatio());
      // what is written where, for tests and readers of the DOM
      overlay.dataset.labels = JSON.stringify(labels.map(([t, x, y]) => [t, Math.round(x), Math.round(y)]));
    });
    m.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-left');
    const popup = new maplibregl.Popup({ closeButton: false, closeOnClick: false, maxWidth: '320px' });
    m.once('style.load', () => {
      m.addSource('projects', {
        type: 'geojson',
        data: latest.current.data,
        cluster: true,
        clusterRadius: 36,
        clusterMaxZoom: 10,
      });
      m.addLayer({
        id: 'clusters',
        type: 'circle',
        source: 'projects',
        filter: ['has', 'point_count'],
        paint: {
          // a colour of the data, as the points' is: both layers are one program of software WebGL, not two
          'circle-color': ['case', ['has', 'point_count'], dark ? '#3b82f6' : '#2563eb', GREY],
          'circle-opacity': 0.85,
          'circle-radius': ['step', ['get', 'point_count'], 14, 10, 18, 100, 24, 1000, 30],
          'circle-stroke-color': dark ? '#0f172a' : '#ffffff',
          'circle-stroke-width': 2,
        },
      });
      m.addLayer({
        id: 'points',
        type: 'circle',
        source: 'projects',
        filter: ['!', ['has', 'point_count']],
        paint: {
          'circle-radius': ['get', 'radius'],
          'circle-color': pointColour(latest.current.range),
          'circle-opacity': 0.85,
          'circle-stroke-color': dark ? '#0f172a' : '#ffffff',
          'circle-stroke-width': 1,
        },
      });
      given.current = { data: latest.current.data, range: latest.current.range };
      ready.current = true;
      describe();
    });
    const describe = () => {
      if (!ready.current) return;
      const { points: all, onView: view } = latest.current;
      const drawn = m.queryRenderedFeatures({ layers: ['points'] });
      const clusters = m.queryRenderedFeatures({ layers: ['clusters'] });
      el.dataset.points = String(all.length);
      el.dataset.registryPoints = String(
        latest.current.data.features.filter((f) => f.properties.registry).length,
      );
      el.dataset.clusters = String(clusters.length);
      el.dataset.zoom = m.getZoom().toFixed(2);
      el.dataset.pixels = JSON.stringify(
        drawn.map((f: MapGeoJSONFeature) => {
          const [lon, lat] = pointOf(f);
          const { x, y } = m.project([lon, lat]);
          return [f.properties.id, Math.round(x), Math.round(y)];
        }),
      );
      el.dataset.clusterPixels = JSON.stringify(
        clusters.map((f: MapGeoJSONFeature) => {
          const [lon, lat] = pointOf(f);
          const { x, y } = m.project([lon, lat]);
          return [f.properties.point_count, Math.round(x), Math.round(y)];
        }),
      );
      const b = m.getBounds();
      const view4: Bounds = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
      el.dataset.bounds = view4.map((v) => v.toFixed(6)).join(',');
      view(view4);
    };
    // drawn: the map idle with the points' source loaded (the bench times a first draw by it)
    m.on('idle', () => {
      describe();
      if (ready.current && !latest.current.waiting) el.dataset.drawn = 'true';
    });
    m.on('moveend', describe);
    m.on('movestart', () => delete el.dataset.drawn);
    m.on('click', 'clusters', async (e: MapLayerMouseEvent) => {
      const feature = e.features?.[0];
      if (!feature) return;
      const source = m.getSource('projects') as GeoJSONSource;
      const zoom = await source.getClusterExpansionZoom(feature.properties.cluster_id as number);
      m.easeTo({ center: pointOf(feature), zoom, duration: 0 });
    });
    m.on('click', 'points', (e: MapLayerMouseEvent) => {
      const p = e.features?.[0]?.properties;
      if (p && !p.registry) latest.current.onOpen(Number(p.id));
    });
    m.on('mousemove', 'points', (e: MapLayerMouseEvent) => {
      const p = e.features?.[0]?.properties;
      const point = latest.current.points.find((x) => x.id === Number(p?.id));
      if (!point) return;
      m.getCanvas().style.cursor = point.registry ? 'default' : 'pointer';
      popup.setLngLat(e.lngLat).setHTML(latest.current.tooltip(point.at)).addTo(m);
    });
    m.on('mouseleave', 'points', () => {
      m.getCanvas().style.cursor = '';
      popup.remove();
    });
    m.on('mouseenter', 'clusters', () => {
      m.getCanvas().style.cursor = 'pointer';
    });
    m.on('mouseleave', 'clusters', () => {
      m.getCanvas().style.cursor = '';
    });
    el.dataset.basemap = config.basemap;
    return () => {
      ready.current = false;
      popup.remove();
      m.remove();
      map.current = null;
      counts.current = null;
    };
  }, [config, dark]);

  // new points or a new colour: the source's data and the circles' paint; the view fitted to the points
  // when they are other projects (a filter changed), kept when only their colour did
  const shown = useRef(idsKey(points));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page's data come (waiting ends): drawn again, marked drawn
  useEffect(() => {
    const m = map.current;
    if (!m || !ready.current) return;
    delete box.current!.dataset.drawn;
    const change = pointsChange(given.current, { data, range });
    given.current = { data, range };
    if (change.data) (m.getSource('projects') as GeoJSONSource | undefined)?.setData(data);
    if (change.paint) m.setPaintProperty('points', 'circle-color', pointColour(range));
    if (change.frame) m.triggerRepaint();
    const key = idsKey(latest.current.points);
    const bounds = pointsBounds(latest.current.points);
    if (key !== shown.current && bounds) {
      const fit = { padding: 24, maxZoom: 12 };
      const b = m.getBounds();
      const fitted = m.cameraForBounds(bounds, fit)?.zoom ?? m.getZoom();
      const view: Bounds = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
      if (fitNeeded(view, m.getZoom(), bounds, fitted)) m.fitBounds(bounds, { ...fit, duration: 0 });
    }
    shown.current = key;
  }, [data, range, waiting]);

  return <div ref={box} className="h-full w-full" data-testid="market-map" />;
}

/** A circle's colour: green → yellow → red over the range; grey with no figure (a registry-only project). */
function pointColour([min, max]: [number, number]): maplibregl.ExpressionSpecification {
  return [
    'case',
    ['has', 'value'],
    ['interpolate', ['linear'], ['get', 'value'], min, SCALE[0], (min + max) / 2, SCALE[1], max, SCALE[2]],
    GREY,
  ];
}

/** The projects drawn, as one key. */
const idsKey = (points: readonly MapPoint[]) => points.map((p) => p.id).join(',');

/** A point feature's longitude and latitude. */
const pointOf = (f: MapGeoJSONFeature) =>
  (f.geometry as unknown as { coordinates: [number, number] }).coordinates;
