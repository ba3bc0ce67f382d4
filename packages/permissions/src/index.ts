export type {
  AppAbility,
  AppSubject,
  EntityMatchMode,
  OrgFeatures,
  PermissionCheck,
  ResourceEntity,
} from './ability.ts';
export { buildAbility, can, canAll, canAny, canOnEntities, resourceEntity } from './ability.ts';
export type { Action, ResourceType } from './resources.ts';
export {
  ACTIONS,
  IOT_ONLY_RESOURCES,
  isAction,
  isIotOnlyResource,
  isResourceType,
  RESOURCE_TYPES,
} from './resources.ts';
export type { RptPermission, RptRule } from './rpt.ts';
export { parseRptRule, parseRptRules } from './rpt.ts';
export type { PermissionGroup, RequiredPermission, ScreenId, ScreenRequirement } from './screens.ts';
export {
  canSeeScreen,
  HOME_FALLBACK,
  HOME_ORDER,
  homeScreen,
  SCREEN_IDS,
  SCREEN_REQUIREMENTS,
  screenRequirement,
} from './screens.ts';
