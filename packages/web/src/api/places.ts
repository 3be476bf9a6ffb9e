import {
  type Place,
  type PlaceEdit,
  type ProjectPlacesResponse,
  placesResponseSchema,
  projectPlaceSchema,
  projectPlacesResponseSchema,
} from '@cena-metra/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../lib/api-client';

/** The regions, cities, districts and stations of the market's projects (the market's filters). */
export const usePlaces = () =>
  useQuery({
    queryKey: ['places'],
    queryFn: () => request(placesResponseSchema, { url: '/places' }),
    staleTime: 5 * 60_000,
  });

/** Every project's place by id (the market's map, table and exports join it to their rows). */
export const useProjectPlaces = () =>
  useQuery({
    queryKey: ['places', 'projects'],
    queryFn: () => request(projectPlacesResponseSchema, { url: '/places/projects' }),
    staleTime: 5 * 60_000,
    select: placesById,
  });

/** A stable function, so the query makes the map once per answer, not on every render of the page. */
function placesById(data: ProjectPlacesResponse): Map<number, Place> {
  return new Map(data.projects.map(({ projectId, ...place }) => [projectId, place]));
}

/** A project's place (DESIGN §11.3), and its hand edit. */
export function useProjectPlace(projectId: number | null) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['project-place', projectId],
    queryFn: () => request(projectPlaceSchema, { url: `/projects/${projectId}/place` }),
    enabled: projectId !== null,
  });
  const edit = useMutation({
    mutationFn: (change: PlaceEdit) =>
      request(projectPlaceSchema, { url: `/projects/${projectId}/place`, method: 'PUT', data: change }),
    onSuccess: (place) => {
      client.setQueryData(['project-place', projectId], place);
      // the market's places and rankings change with it
      void client.invalidateQueries({ queryKey: ['places'] });
      void client.invalidateQueries({ queryKey: ['market'] });
    },
  });
  return { query, edit };
}
