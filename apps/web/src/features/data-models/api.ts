import type { MappingsPaths, OkBody, PlatformPaths } from '@edgeport/api-client';
import {
  answer,
  bearer,
  mappingsClient,
  platformClient,
  slowMappingsClient,
} from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';
import type { ModelDraft, ModelPathEntry } from './model-form.ts';

const MODELS = '/svc/mappings/api/v1/organizations/{org}/models';
const MODEL = '/svc/mappings/api/v1/organizations/{org}/models/{id}';
const MODEL_NAMES = '/svc/mappings/api/v1/organizations/{org}/models/names';
const MODEL_VERSIONS = '/svc/mappings/api/v1/organizations/{org}/models/{id}/versions';
const VALIDATE = '/svc/mappings/api/v1/organizations/{org}/models/validate';
const PATH_SEARCH = '/svc/mappings/api/v1/organizations/{org}/models/paths/search';
const MODEL_VISIBILITY = '/svc/mappings/api/v1/organizations/{org}/models/name/{name}/subOrgsEnabledToView';
const PRESETS = '/svc/mappings/api/v1/organizations/{org}/presets';
const PRESETS_ASYNC = '/svc/mappings/api/v1/organizations/{org}/presets/async';
const PRESET_JOB = '/svc/mappings/api/v1/organizations/{org}/presets/async/{id}';
const PRESET = '/svc/mappings/api/v1/organizations/{org}/presets/{id}';
const PRESET_CONFIGURATION = '/svc/mappings/api/v1/organizations/{org}/presets/{id}/deviceConfiguration';
const PRESET_VISIBILITY = '/svc/mappings/api/v1/organizations/{org}/mappings/{id}/subOrgsEnabledToView';
const FORMULA = '/svc/platform/api/v1/organizations/{org}/preset/formula/validate';

export type ModelPage = OkBody<MappingsPaths, typeof MODELS, 'get'>;
export type ModelSummary = ModelPage['items'][number];
export type Model = OkBody<MappingsPaths, typeof MODEL, 'get'>;
export type ModelNames = OkBody<MappingsPaths, typeof MODEL_NAMES, 'get'>;
export type ModelVersions = OkBody<MappingsPaths, typeof MODEL_VERSIONS, 'get'>;
export type ModelVersion = ModelVersions[number];
export type ValidationResult = OkBody<MappingsPaths, typeof VALIDATE, 'post'>;
export type PathHitPage = OkBody<MappingsPaths, typeof PATH_SEARCH, 'post'>;
export type PathHit = PathHitPage['items'][number];
export type PresetPage = OkBody<MappingsPaths, typeof PRESETS, 'get'>;
export type PresetSummary = PresetPage['items'][number];
export type Preset = OkBody<MappingsPaths, typeof PRESET, 'get'>;
export type PresetJob = OkBody<MappingsPaths, typeof PRESET_JOB, 'get'>;
export type DeviceConfiguration = OkBody<MappingsPaths, typeof PRESET_CONFIGURATION, 'get'>;
export type FormulaCheck = OkBody<PlatformPaths, typeof FORMULA, 'post'>;

export type ModelInput = { name: string; description?: string; paths: ModelPathEntry[] };
export type PresetInput = {
  name: string;
  modelId: string;
  modelVersion?: number;
  mappings: { tag: string; path: string; formula?: string }[];
  deviceConfiguration?: Record<string, unknown>;
};

// Models --------------------------------------------------------------------------------------------------------------

export function fetchModels(token: string, org: string, request: PageRequest, signal?: AbortSignal) {
  return answer(
    mappingsClient.GET(MODELS, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function fetchModel(token: string, org: string, id: string, signal?: AbortSignal): Promise<Model> {
  return answer(mappingsClient.GET(MODEL, { params: { path: { org, id } }, headers: bearer(token), signal }));
}

export function fetchModelNames(token: string, org: string, signal?: AbortSignal): Promise<ModelNames> {
  return answer(
    mappingsClient.GET(MODEL_NAMES, { params: { path: { org } }, headers: bearer(token), signal }),
  );
}

export function fetchModelVersions(
  token: string,
  org: string,
  id: string,
  signal?: AbortSignal,
): Promise<ModelVersions> {
  return answer(
    mappingsClient.GET(MODEL_VERSIONS, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

/** Spec 9: model creation and update may take up to 300 s. */
export function createModel(token: string, org: string, input: ModelInput): Promise<Model> {
  return answer(
    slowMappingsClient.POST(MODELS, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export function updateModel(
  token: string,
  org: string,
  id: string,
  input: Partial<ModelInput>,
): Promise<Model> {
  return answer(
    slowMappingsClient.PUT(MODEL, { params: { path: { org, id } }, body: input, headers: bearer(token) }),
  );
}

export async function deleteModel(token: string, org: string, id: string): Promise<void> {
  await answer(mappingsClient.DELETE(MODEL, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function validateModel(
  token: string,
  org: string,
  draft: ModelDraft,
  signal?: AbortSignal,
): Promise<ValidationResult> {
  return answer(
    mappingsClient.POST(VALIDATE, { params: { path: { org } }, body: draft, headers: bearer(token), signal }),
  );
}

/** Spec 9: the path search defaults to page 0 and 100 per page. */
export function searchPaths(
  token: string,
  org: string,
  search: { query: string; page: number; pageSize?: number },
  signal?: AbortSignal,
): Promise<PathHitPage> {
  return answer(
    mappingsClient.POST(PATH_SEARCH, {
      params: { path: { org } },
      body: { query: search.query, page: search.page, pageSize: search.pageSize ?? 100 },
      headers: bearer(token),
      signal,
    }),
  );
}

export function setModelVisibility(
  token: string,
  org: string,
  name: string,
  enabled: boolean,
): Promise<Model> {
  return answer(
    mappingsClient.PUT(MODEL_VISIBILITY, {
      params: { path: { org, name } },
      body: { enabled },
      headers: bearer(token),
    }),
  );
}

// Presets -------------------------------------------------------------------------------------------------------------

export function fetchPresets(token: string, org: string, request: PageRequest, signal?: AbortSignal) {
  return answer(
    mappingsClient.GET(PRESETS, {
      params: { path: { org }, query: request },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchPreset(token: string, org: string, id: string, signal?: AbortSignal): Promise<Preset> {
  return answer(
    mappingsClient.GET(PRESET, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

export function fetchDeviceConfiguration(
  token: string,
  org: string,
  id: string,
  signal?: AbortSignal,
): Promise<DeviceConfiguration> {
  return answer(
    mappingsClient.GET(PRESET_CONFIGURATION, {
      params: { path: { org, id } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Spec 7/9: `POST /presets` waits up to 300 s. */
export function createPreset(token: string, org: string, input: PresetInput): Promise<Preset> {
  return answer(
    slowMappingsClient.POST(PRESETS, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

/** Spec 4: starts the creation in the background; its progress is polled with `fetchPresetJob`. */
export function startPresetJob(token: string, org: string, input: PresetInput): Promise<{ id: string }> {
  return answer(
    mappingsClient.POST(PRESETS_ASYNC, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export function fetchPresetJob(
  token: string,
  org: string,
  id: string,
  signal?: AbortSignal,
): Promise<PresetJob> {
  return answer(
    mappingsClient.GET(PRESET_JOB, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

export async function deletePreset(token: string, org: string, id: string): Promise<void> {
  await answer(mappingsClient.DELETE(PRESET, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function setPresetVisibility(
  token: string,
  org: string,
  id: string,
  enabled: boolean,
): Promise<Preset> {
  return answer(
    mappingsClient.PUT(PRESET_VISIBILITY, {
      params: { path: { org, id } },
      body: { enabled },
      headers: bearer(token),
    }),
  );
}

/** Spec 7 Platform `POST /preset/formula/validate`: whether a formula of `value` gives a number. */
export function validateFormula(
  token: string,
  org: string,
  formula: string,
  signal?: AbortSignal,
): Promise<FormulaCheck> {
  return answer(
    platformClient.POST(FORMULA, {
      params: { path: { org } },
      body: { formula },
      headers: bearer(token),
      signal,
    }),
  );
}
