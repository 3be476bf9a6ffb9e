import m001 from './migrations/001.js';
import m002 from './migrations/002.js';
import m003 from './migrations/003.js';
import m004 from './migrations/004.js';
import m005 from './migrations/005.js';
import m006 from './migrations/006.js';
import m007 from './migrations/007.js';
import m008 from './migrations/008.js';
import m009 from './migrations/009.js';
import m010 from './migrations/010.js';
import m011 from './migrations/011.js';
import m012 from './migrations/012.js';
import m013 from './migrations/013.js';
import m014 from './migrations/014.js';
import m015 from './migrations/015.js';
import m016 from './migrations/016.js';
import m017 from './migrations/017.js';
import m018 from './migrations/018.js';
import m019 from './migrations/019.js';
import m020 from './migrations/020.js';
import m021 from './migrations/021.js';
import m022 from './migrations/022.js';
import m023 from './migrations/023.js';
import m024 from './migrations/024.js';
import m025 from './migrations/025.js';
import m026 from './migrations/026.js';
import m027 from './migrations/027.js';
import m028 from './migrations/028.js';
import m029 from './migrations/029.js';
import m030 from './migrations/030.js';
import m031 from './migrations/031.js';
import m032 from './migrations/032.js';
import m033 from './migrations/033.js';
import m034 from './migrations/034.js';
import m035 from './migrations/035.js';
import m036 from './migrations/036.js';
import m037 from './migrations/037.js';
import m038 from './migrations/038.js';
import m039 from './migrations/039.js';
import m040 from './migrations/040.js';
import m041 from './migrations/041.js';

/**
 * Schema migrations, one file each (db/migrations/NNN.ts), applied in order at start and recorded in
 * schema_migration. Append only: a released migration is never edited; a new one is the next number's file
 * and a line here. Every large table carries project_id, the Citus distribution key.
 */
export const MIGRATIONS: { id: number; name: string; sql: string }[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m027,
  m028,
  m029,
  m030,
  m031,
  m032,
  m033,
  m034,
  m035,
  m036,
  m037,
  m038,
  m039,
  m040,
  m041,
];
