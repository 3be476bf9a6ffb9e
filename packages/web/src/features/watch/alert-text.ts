export { alertText } from '@cena-metra/contract';

export const alertDay = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');
