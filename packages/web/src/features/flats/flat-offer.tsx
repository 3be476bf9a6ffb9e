import { type FlatCard, formatDecimal2, formatRoubles, paymentTermLabel } from '@cena-metra/contract';
import { useState } from 'react';
import { Card } from '../../components/ui';

const day = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('ru-RU');

/**
 * «Предложение застройщика» (DESIGN §11.4): the crossed-out price and the developer's own discount, the
 * prices by payment term, the promotion, the booking fee and the plan; the offer's changes below. Shown
 * only when the flat's lists offered something beside the price.
 */
export function FlatOfferCard({ card }: { card: FlatCard }) {
  const [planFailed, setPlanFailed] = useState(false);
  const offer = card.offer;
  const history = card.offerHistory ?? [];
  if (!offer || history.length === 0) return null;
  const terms = Object.entries(offer.offerPrices);
  const rows: [string, string][] = [
    ['Цена', `${formatRoubles(card.record.price)} ₽`],
    ...(offer.oldPrice !== null
      ? ([['Старая цена', `${formatRoubles(offer.oldPrice)} ₽`]] as [string, string][])
      : []),
    ...(card.developerDiscount !== null && card.developerDiscount !== undefined
      ? ([['Скидка по данным застройщика', `${formatDecimal2(card.developerDiscount)} %`]] as [
          string,
          string,
        ][])
      : []),
    ...terms.map(([term, price]): [string, string] => [paymentTermLabel(term), `${formatRoubles(price)} ₽`]),
    ...(offer.promo ? ([['Акция', offer.promo]] as [string, string][]) : []),
    ...(offer.bookingCost !== null
      ? ([['Бронирование', `${formatRoubles(offer.bookingCost)} ₽`]] as [string, string][])
      : []),
  ];
  return (
    <Card className="mt-6" title="Предложение застройщика">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm" data-testid="flat-offer">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-gray-500 dark:text-slate-400">{k}</dt>
            <dd data-field={k} className={k === 'Старая цена' ? 'line-through' : undefined}>
              {v}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-gray-500 text-xs dark:text-slate-400">
        Скидка по данным застройщика — от зачёркнутой цены; скидка по истории цен считается отдельно.
      </p>
      {offer.planUrl && (
        <div className="mt-4" data-testid="flat-plan">
          {!planFailed && (
            <img
              src={offer.planUrl}
              alt="Планировка квартиры"
              referrerPolicy="no-referrer"
              className="max-h-80 rounded bg-white"
              onError={() => setPlanFailed(true)}
            />
          )}
          <a
            className="text-blue-600 text-sm hover:underline dark:text-blue-400"
            href={offer.planUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            Планировка{planFailed ? ' (не загрузилась — открыть по ссылке)' : ''} →
          </a>
        </div>
      )}
      {history.length > 1 && (
        <ul className="mt-4 space-y-1 text-sm" data-testid="flat-offer-history">
          {[...history].reverse().map((h) => (
            <li key={h.date}>
              <span className="text-gray-500 dark:text-slate-400">{day(h.date)}: </span>
              {[
                h.offer.oldPrice !== null && `старая цена ${formatRoubles(h.offer.oldPrice)} ₽`,
                h.offer.promo,
                ...Object.entries(h.offer.offerPrices).map(
                  ([t, p]) => `${paymentTermLabel(t).toLowerCase()} ${formatRoubles(p)} ₽`,
                ),
              ]
                .filter(Boolean)
                .join('; ') || 'без предложения'}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
