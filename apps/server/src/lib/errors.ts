// Typed errors services throw; the app's error handler turns them into the API's JSON
// error envelope `{ success: false, message, code }` with the status they carry.

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code = 'BAD_REQUEST') {
    super(400, message, code);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required', code = 'UNAUTHORIZED') {
    super(401, message, code);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this', code = 'FORBIDDEN') {
    super(403, message, code);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found', code = 'NOT_FOUND') {
    super(404, message, code);
  }
}
export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT') {
    super(409, message, code);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string, code = 'PAYLOAD_TOO_LARGE') {
    super(413, message, code);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string, code = 'UNSUPPORTED_MEDIA_TYPE') {
    super(415, message, code);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message: string, code = 'RATE_LIMITED') {
    super(429, message, code);
  }
}

/** Postgres unique violation (23505), from either driver, optionally on a named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let e: unknown = err;
  // Drizzle wraps driver errors; the original sits on `cause`.
  for (let i = 0; i < 3 && e; i++) {
    const x = e as { code?: string; constraint?: string; cause?: unknown };
    if (x.code === '23505') return constraint ? x.constraint === constraint : true;
    e = x.cause;
  }
  return false;
}
