import { type RegistryPipelineRequest, registryPipelineResponseSchema } from '@cena-metra/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { post } from '../../lib/api-client';

/** «Старты и ввод»: the registry's launches and declared completions by quarter (DESIGN §12.3). */
export const usePipeline = (body: RegistryPipelineRequest | null) =>
  useQuery({
    queryKey: ['registry-pipeline', body],
    queryFn: ({ signal }) => post(registryPipelineResponseSchema, '/registry/pipeline', body!, signal),
    enabled: body !== null,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
