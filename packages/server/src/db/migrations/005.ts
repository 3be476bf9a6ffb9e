/** Migration 5, of the second stage (DESIGN §10). Append only: a released migration is never edited. */
export default {
  id: 5,
  name: 'one building key across sources: «Корпус 31», «корп. 31», «31» are one building «31» (DESIGN §10.3)',
  sql: `
-- The key of contract/labels.ts buildingKey, in SQL: spaces collapsed, trimmed, a leading «корпус»,
-- «корп.» or «к.» in any case removed (spelled letter by letter: the database's case folding may not
-- know Cyrillic), the name kept when nothing is left.
update flat_observation set building = coalesce(nullif(btrim(regexp_replace(
    btrim(regexp_replace(building, '\\s+', ' ', 'g')),
    '^([Кк][Оо][Рр][Пп][Уу][Сс]|[Кк][Оо][Рр][Пп]\\.|[Кк]\\.)\\s*', '')), ''),
    btrim(regexp_replace(building, '\\s+', ' ', 'g')))
  where building ~ '(^\\s|\\s$|\\s\\s|^([Кк][Оо][Рр][Пп][Уу][Сс]|[Кк][Оо][Рр][Пп]\\.|[Кк]\\.))';

-- The log keeps a row only where a flat's state changes: a renamed building may have made two rows equal.
delete from flat_observation o using (
  select project_id, flat_id, snapshot_date, present, lag(present) over w as p_present,
         row_number() over w as rn,
         building, section, floor, number, rooms, area, facing, settlement_date, price, base_price, status,
         lag(building) over w as p_building,
         lag(section) over w as p_section,
         lag(floor) over w as p_floor,
         lag(number) over w as p_number,
         lag(rooms) over w as p_rooms,
         lag(area) over w as p_area,
         lag(facing) over w as p_facing,
         lag(settlement_date) over w as p_settlement_date,
         lag(price) over w as p_price,
         lag(base_price) over w as p_base_price,
         lag(status) over w as p_status
  from flat_observation window w as (partition by project_id, flat_id order by snapshot_date)
) x
where o.project_id = x.project_id and o.flat_id = x.flat_id and o.snapshot_date = x.snapshot_date
    and x.rn > 1 and x.present and x.p_present
    and x.building is not distinct from x.p_building
    and x.section is not distinct from x.p_section
    and x.floor is not distinct from x.p_floor
    and x.number is not distinct from x.p_number
    and x.rooms is not distinct from x.p_rooms
    and x.area is not distinct from x.p_area
    and x.facing is not distinct from x.p_facing
    and x.settlement_date is not distinct from x.p_settlement_date
    and x.price is not distinct from x.p_price
    and x.base_price is not distinct from x.p_base_price
    and x.status is not distinct from x.p_status;

-- Segments, cubes, events and summaries hold the old names: rebuilt at the next start (cli/context.ts).
insert into app_meta (key, value)
  select 'rebuild_needed', 'ключи корпусов' where exists (select 1 from flat_observation)
  on conflict (key) do update set value = excluded.value;
`,
};
