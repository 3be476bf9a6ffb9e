import { z } from 'zod';
import { idSchema } from './api.js';
import { dataDateSchema, isoDateSchema } from './dates.js';
import { type PriceClass, placeFilter } from './pace.js';

// --- the state registry (DESIGN §12.3) ---

/** The classes of housing, normalised from the registry's `objLkClassDesc`. */
export const HOUSING_CLASS_NAMES = ['Эконом', 'Комфорт', 'Бизнес', 'Премиум', 'Элит'] as const;
export type HousingClassName = (typeof HOUSING_CLASS_NAMES)[number];

/** The market's class (its four, by price) a registry class counts as: Элит is the top one, Премиум. */
export const PRICE_CLASS_OF_HOUSING: Record<HousingClassName, PriceClass> = {
  Эконом: 'economy',
  Комфорт: 'comfort',
  Бизнес: 'business',
  Премиум: 'premium',
  Элит: 'premium',
};

/** A declared date: a day, or a quarter read as its last day. */
export const registryDateSchema = z.object({ day: z.string(), quarter: z.boolean() });
export type RegistryDateValue = z.infer<typeof registryDateSchema>;

export const REGISTRY_SHIFT_FIELDS = ['ready', 'transfer'] as const;
export const REGISTRY_SHIFT_LABELS: Record<(typeof REGISTRY_SHIFT_FIELDS)[number], string> = {
  ready: 'Ввод в эксплуатацию',
  transfer: 'Передача ключей',
};

export const registryShiftSchema = z.object({
  field: z.enum(REGISTRY_SHIFT_FIELDS),
  /** the registry day the new date was first seen */
  day: z.string(),
  from: z.string(),
  to: z.string(),
  /** + later, − earlier */
  months: z.number(),
});
export type RegistryShift = z.infer<typeof registryShiftSchema>;

export const registrySalesMonthSchema = z.object({
  month: z.string(),
  /** registered sales (the rises of realised flats); null in an object's first month */
  sales: z.number().int().nullable(),
  /** the registry's falls, shown apart */
  corrections: z.number().int(),
  soldShare: z.number().nullable(),
});

export const REGISTRY_MATCHES = ['auto', 'hand', 'none'] as const;
export const REGISTRY_MATCH_LABELS: Record<(typeof REGISTRY_MATCHES)[number], string> = {
  auto: 'по правилу',
  hand: 'вручную',
  none: 'не привязан',
};

export const registryObjectSchema = z.object({
  objId: z.number().int(),
  /** the ЖК as the registry names it */
  name: z.string().nullable(),
  /** the building's own name (`nameObj`) and our building key it was matched to */
  buildingName: z.string().nullable(),
  building: z.string().nullable(),
  address: z.string().nullable(),
  developer: z.string().nullable(),
  group: z.string().nullable(),
  housingClass: z.enum(HOUSING_CLASS_NAMES).nullable(),
  classRaw: z.string().nullable(),
  ready: registryDateSchema.nullable(),
  transfer: registryDateSchema.nullable(),
  published: registryDateSchema.nullable(),
  shifts: z.array(registryShiftSchema),
  flats: z.number().int().nullable(),
  realised: z.number().int().nullable(),
  soldShare: z.number().nullable(),
  escrow: z.boolean().nullable(),
  problem: z.boolean().nullable(),
  declaration: z.string().nullable(),
  firstDay: z.string(),
  lastDay: z.string(),
  match: z.enum(REGISTRY_MATCHES),
  /** apartments (non-residential lots): shown, kept apart from the flats' figures */
  apartments: z.boolean(),
  sales: z.array(registrySalesMonthSchema),
});
export type RegistryObject = z.infer<typeof registryObjectSchema>;

export const registryObjectsQuerySchema = z.object({ projectId: idSchema('projectId') });
export const registryObjectsResponseSchema = z.object({
  objects: z.array(registryObjectSchema),
  /** the project's registered sales by month over all its objects */
  sales: z.array(registrySalesMonthSchema),
  soldShare: z.number().nullable(),
  /** the last day of the registry imported (null: none yet) */
  lastDay: z.string().nullable(),
});
export type RegistryObjectsResponse = z.infer<typeof registryObjectsResponseSchema>;

export const reliabilitySchema = z.object({
  objects: z.number().int(),
  movedLater: z.number().int(),
  movedLaterShare: z.number().nullable(),
  monthsLast12: z.number(),
  meanMonthsLast12: z.number().nullable(),
  shiftsLast12: z.number().int(),
});
export type ReliabilityValue = z.infer<typeof reliabilitySchema>;

export const registryShiftsQuerySchema = z.object({ developerId: idSchema('developerId') });
export const registryShiftsResponseSchema = z.object({
  reliability: reliabilitySchema,
  shifts: z.array(registryShiftSchema.extend({ objId: z.number().int(), name: z.string().nullable() })),
  asOf: z.string().nullable(),
});
export type RegistryShiftsResponse = z.infer<typeof registryShiftsResponseSchema>;

/** «Надёжность сроков» of every developer with registry objects matched to its projects. */
export const registryReliabilityResponseSchema = z.object({
  developers: z.array(
    reliabilitySchema.extend({
      developerId: z.number().int(),
      /** the developer's group as the registry names it (of most of its objects); null without one */
      group: z.string().nullable(),
    }),
  ),
  /** every group of the registry over all its objects (registry-only ones too), by name */
  groups: z.array(reliabilitySchema.extend({ group: z.string() })),
  asOf: z.string().nullable(),
});
export type RegistryReliabilityResponse = z.infer<typeof registryReliabilityResponseSchema>;

export const registryLinkParamsSchema = z.object({ objId: idSchema('objId') });
/** A hand link to a project, or (null) a hand unlink: the object stays a project of its own. */
export const registryLinkBodySchema = z.object({
  projectId: z.union([idSchema('projectId'), z.null()]),
});
export const registryLinkResponseSchema = z.object({
  objId: z.number().int(),
  projectId: z.number().int().nullable(),
  building: z.string().nullable(),
  match: z.enum(REGISTRY_MATCHES),
});

/** A request's class of housing, optional. */
const housingClassFilter = z
  .enum(HOUSING_CLASS_NAMES, { message: `housingClass: одно из ${HOUSING_CLASS_NAMES.join(', ')}` })
  .optional();

/** Registered sales of a project, a developer, a place or the whole market, by month (DESIGN §12.3). */
export const registrySalesRequestSchema = z
  .object({
    projectId: idSchema('projectId').optional(),
    developerId: idSchema('developerId').optional(),
    region: placeFilter('region'),
    city: placeFilter('city'),
    district: placeFilter('district'),
    housingClass: housingClassFilter,
    from: dataDateSchema,
    to: dataDateSchema,
  })
  .refine((q) => q.projectId === undefined || q.developerId === undefined, {
    message: 'projectId и developerId: укажите что-то одно',
    path: ['developerId'],
  })
  .refine((q) => q.from <= q.to, { message: 'from: позже to', path: ['from'] });
export type RegistrySalesRequest = z.input<typeof registrySalesRequestSchema>;

export const registrySalesResponseSchema = z.object({
  months: z.array(
    registrySalesMonthSchema.extend({
      /** the lots gone from our lists in the 30 days to the month's last registry day (§10.5): the same
       *  projects' inferred sales; null where none of them has lists */
      gone30: z.number().nullable(),
    }),
  ),
  objects: z.number().int(),
  /** of which matched to our projects (the gone₃₀ is theirs) */
  withLists: z.number().int(),
});
export type RegistrySalesResponse = z.infer<typeof registrySalesResponseSchema>;

/** Launches and completions by quarter (DESIGN §12.3): the registry's pipeline of a place and a class. */
export const registryPipelineRequestSchema = z
  .object({
    region: placeFilter('region'),
    city: placeFilter('city'),
    district: placeFilter('district'),
    housingClass: housingClassFilter,
    /** quarters may lie ahead: completions are declared years forward */
    from: isoDateSchema,
    to: isoDateSchema,
  })
  .refine((q) => q.from <= q.to, { message: 'from: позже to', path: ['from'] })
  .refine((q) => Number(q.to.slice(0, 4)) - Number(q.from.slice(0, 4)) <= 20, {
    message: 'to: не больше 20 лет от from',
    path: ['to'],
  });
export type RegistryPipelineRequest = z.input<typeof registryPipelineRequestSchema>;

export const registryPipelineResponseSchema = z.object({
  quarters: z.array(
    z.object({
      quarter: z.string(),
      launches: z.number().int(),
      launchedFlats: z.number().int(),
      completions: z.number().int(),
      completingFlats: z.number().int(),
      unsold: z.number().int().nullable(),
      soldShare: z.number().nullable(),
    }),
  ),
  objects: z.number().int(),
});
export type RegistryPipelineResponse = z.infer<typeof registryPipelineResponseSchema>;

/** Every registry project of the market (DESIGN §12.3): our projects with registry objects, and those only in it. */
export const registryMarketRequestSchema = z.object({
  developerId: idSchema('developerId').optional(),
  region: placeFilter('region'),
  city: placeFilter('city'),
  district: placeFilter('district'),
  housingClass: housingClassFilter,
});
export type RegistryMarketRequest = z.input<typeof registryMarketRequestSchema>;

export const registryMarketProjectSchema = z.object({
  /** our project the objects are matched to; null: a registry-only project (no price list) */
  projectId: z.number().int().nullable(),
  /** the smallest object number of the project (a registry-only project's key) */
  objId: z.number().int(),
  name: z.string(),
  developerName: z.string(),
  /** its objects of flats (its objects of apartments are counted apart) */
  objects: z.number().int(),
  apartments: z.number().int(),
  /** flats declared (Σ objElemLivingCnt / objFlatCnt); null when no object says */
  flats: z.number().int().nullable(),
  /** flats sold by the registry (Σ realised: sales answers, else the detail's sold share × flats) */
  realised: z.number().int().nullable(),
  /** flats-weighted sold share, 0–1 */
  soldShare: z.number().nullable(),
  /** the class of most of its flats, by the registry */
  housingClass: z.enum(HOUSING_CLASS_NAMES).nullable(),
  /** the latest declared completion among its objects */
  ready: z.string().nullable(),
  problem: z.boolean(),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type RegistryMarketProject = z.infer<typeof registryMarketProjectSchema>;

export const registryMarketResponseSchema = z.object({
  projects: z.array(registryMarketProjectSchema),
  /** registry objects in the selection */
  objects: z.number().int(),
  asOf: z.string().nullable(),
});
export type RegistryMarketResponse = z.infer<typeof registryMarketResponseSchema>;

/** The registry-only objects an admin may link to a project: its ЖК name anywhere, or within 10 km. */
export const registryCandidatesQuerySchema = z.object({ projectId: idSchema('projectId') });
export const registryCandidatesResponseSchema = z.object({
  objects: z.array(
    z.object({
      objId: z.number().int(),
      name: z.string().nullable(),
      buildingName: z.string().nullable(),
      developer: z.string().nullable(),
      address: z.string().nullable(),
      flats: z.number().int().nullable(),
      /** from the project's coordinates; null when either has none */
      km: z.number().nullable(),
      /** the same ЖК name as the project's */
      sameName: z.boolean(),
    }),
  ),
});
export type RegistryCandidatesResponse = z.infer<typeof registryCandidatesResponseSchema>;
