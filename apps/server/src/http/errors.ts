/** A failure with an HTTP status; Fastify turns it into `{ statusCode, error, message }`. */
export class HttpError extends Error {
  readonly statusCode: number;

  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

export const unauthorized = (message = 'a valid bearer token is required') => new HttpError(401, message);
export const forbidden = (message = 'not allowed') => new HttpError(403, message);
export const notFound = (message = 'not found') => new HttpError(404, message);
export const badRequest = (message: string) => new HttpError(400, message);
/** The change is refused because of the current state (something depends on it, the name is taken). */
export const conflict = (message: string) => new HttpError(409, message);
