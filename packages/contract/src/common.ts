import { Type } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
  },
  {
    $id: 'ErrorResponse',
    description: 'Every failed call answers with this shape; message names the offending field.',
  },
);

export const Uuid = Type.String({ format: 'uuid' });
