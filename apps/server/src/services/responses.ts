import { common } from '@edgeport/contract';

/** The error answers every authenticated route may give, for the OpenAPI documents. */
export const errorResponses = {
  400: common.ErrorResponse,
  401: common.ErrorResponse,
  403: common.ErrorResponse,
  404: common.ErrorResponse,
};
