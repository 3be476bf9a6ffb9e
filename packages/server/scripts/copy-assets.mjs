import {cpSync,existsSync} from 'node:fs';
