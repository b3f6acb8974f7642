// node bench/csv-parse-floor.mjs <sheet> [delimiter] — the floor of a whole-process sheet check: start node, stream
// the file through csv-parse (the delimiter, ';' unless given; relaxed like paybatch's reader) and count the records.
// Prints the count.
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { parse } from 'csv-parse';

let records = 0;
const parser = createReadStream(process.argv[2], { highWaterMark: 256 * 1024 }).pipe(parse({ delimiter: process.argv[3] ?? ';', relax_column_count: true, relax_quotes: true }));
parser.on('data', () => void records++);
await once(parser, 'end');
console.log(records - 1);
