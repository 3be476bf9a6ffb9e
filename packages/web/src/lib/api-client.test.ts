import { chessResponseSchema, developersResponseSchema } from '@cena-metra/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The door of every answer (DESIGN §12.2): parsed by the contract's schema, a malformed one a clear error.
// The server is not the subject here: fetch answers what each case needs (the browser's storage and
// window are the little the client reads of them).

const storage = () => {
  const kept = new Map<string, string>();
  return {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => kept.set(k, v),
    removeItem: (k: string) => kept.delete(k),
  };
};
let client: typeof import('./api-client');
beforeAll(async () => {
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('sessionStorage', storage());
  vi.stubGlobal('window', { location: { hash: '' } });
  client = await import('./api-client');
});
afterAll(() => vi.unstubAllGlobals());
const answer = (status: number, body: string) =>
  vi.stubGlobal('fetch', async () => new Response(status === 204 ? null : body, { status }));
const request: typeof client.request = (schema, options) => client.request(schema, options);

describe('request(schema, …)', () => {
  it('gives the parsed answer', async () => {
    answer(200, JSON.stringify([{ id: 5, name: 'Пионер' }]));
    expect(await request(developersResponseSchema, { url: '/developers' })).toEqual([
      { id: 5, name: 'Пионер' },
    ]);
  });

  it('an answer of another shape is an ApiError naming the place, not a broken page', async () => {
    answer(200, JSON.stringify([{ id: '5', name: 'Пионер' }]));
    const error = await request(developersResponseSchema, { url: '/developers' }).catch((e) => e);
    expect(error).toBeInstanceOf(client.ApiError);
    expect(error.code).toBe(client.BAD_ANSWER);
    expect(error.message).toMatch(/^ответ сервера не совпадает с ожидаемым \(\/developers: 0\.id: /);
  });

  it('a proxy’s HTML page instead of JSON is the same clear error', async () => {
    answer(200, '<html><body>502 Bad Gateway</body></html>');
    const error = await request(chessResponseSchema, { url: '/chess' }).catch((e) => e);
    expect(error).toBeInstanceOf(client.ApiError);
    expect(error.code).toBe(client.BAD_ANSWER);
    expect(error.message).toContain('/chess: ответ');
  });

  it('an error answer keeps the server’s message and code; a 204 is nothing', async () => {
    answer(404, JSON.stringify({ message: 'проект 7 не найден', code: 'NOT_FOUND' }));
    const error = await request(developersResponseSchema, { url: '/developers' }).catch((e) => e);
    expect(error).toMatchObject({ message: 'проект 7 не найден', status: 404, code: 'NOT_FOUND' });
    answer(204, '');
    await expect(client.requestNothing({ url: '/watches/1', method: 'DELETE' })).resolves.toBeUndefined();
  });
});
