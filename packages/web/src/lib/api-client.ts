import { sessionStore, signOut } from './session';
import { telegramToken } from './telegram';

export const CORS_MESSAGE = 'Доступ к серверу ограничен политикой CORS. Обратитесь в поддержку.';

/** One error shape from server to screen: the server's `message` (or the transport's) and the status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  data?: unknown;
  params?: Record<string, string | number | undefined | null>;
  signal?: AbortSignal;
}

/** Called when the API answers 401: the app signs out and returns to /login keeping the wanted URL. */
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * What the contract's zod schemas offer a client: a parse that says what is wrong instead of throwing. Typed
 * structurally, so the web needs no import of zod for it.
 */
export interface AnswerSchema<T> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** The code of an answer that does not match the contract (a server of another version, a proxy's page). */
export const BAD_ANSWER = 'BAD_ANSWER';

/** A call to /api: JSON in and out, bearer token when signed in; failures raise ApiError; the raw body. */
async function call({ url, method = 'GET', data, params, signal }: RequestOptions): Promise<{
  status: number;
  body: unknown;
}> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {}))
    if (value !== undefined && value !== null) query.set(key, String(value));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (data !== undefined) headers['content-type'] = 'application/json';
  const session = sessionStore.get();
  if (session) headers.authorization = `Bearer ${session.token}`;
  const tg = telegramToken();
  if (tg) headers.token = tg;
  let response: Response;
  try {
    response = await fetch(`/api${url}${query.size ? `?${query}` : ''}`, {
      method,
      headers,
      body: data === undefined ? undefined : JSON.stringify(data),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    // fetch rejects without a status when the browser blocks the response (CORS) or the network is down
    throw new ApiError(CORS_MESSAGE, 0);
  }
  if (response.status === 204) return { status: 204, body: undefined };
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    const payload = body as { message?: string; code?: string } | null;
    if (response.status === 401 && session) {
      signOut();
      onUnauthorized();
    }
    throw new ApiError(
      typeof payload?.message === 'string' ? payload.message : `${response.status} ${response.statusText}`,
      response.status,
      typeof payload?.code === 'string' ? payload.code : undefined,
    );
  }
  return { status: response.status, body };
}

/**
 * A call to /api whose answer is parsed by the contract's schema at the door (DESIGN §12.2): what the page
 * gets has the shape its types say, and an answer that does not (a server of another version, a proxy's
 * HTML page) is a clear error naming the place, not a broken page.
 */
export async function request<T>(schema: AnswerSchema<T>, options: RequestOptions): Promise<T> {
  const { status, body } = await call(options);
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'ответ';
  throw new ApiError(
    `ответ сервера не совпадает с ожидаемым (${options.url}: ${where}: ${issue?.message ?? 'неверная форма'})`,
    status,
    BAD_ANSWER,
  );
}

/** A call to /api that answers nothing (204): its success is all there is. */
export async function requestNothing(options: RequestOptions): Promise<void> {
  await call(options);
}

/** A download from /api (CSV, Excel) with the bearer token; a refusal raises ApiError with its message. */
export async function requestFile(
  url: string,
  params: Record<string, string | number | undefined | null>,
): Promise<Blob> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const session = sessionStore.get();
  const res = await fetch(`/api${url}${query.size ? `?${query}` : ''}`, {
    headers: session ? { authorization: `Bearer ${session.token}` } : {},
  });
  if (!res.ok)
    throw new ApiError(
      ((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `HTTP ${res.status}`,
      res.status,
    );
  return res.blob();
}

/** A POST of a JSON body whose answer `schema` parses (the analytics requests). */
export const post = <T>(schema: AnswerSchema<T>, url: string, data: object, signal?: AbortSignal) =>
  request(schema, { url, method: 'POST', data, signal });
