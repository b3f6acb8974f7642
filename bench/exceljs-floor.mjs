// node bench/exceljs-floor.mjs <workbook> — the floor of a whole-process XLSX check: start node, read the first
// worksheet with exceljs's own streaming reader (the options paybatch reads with: shared strings and styles cached),
// touch every cell's value and count the rows after the first. Prints the count.
import { createReadStream } from 'node:fs';
import ExcelJS from 'exceljs';

const reader = new ExcelJS.stream.xlsx.WorkbookReader(createReadStream(process.argv[2], { highWaterMark: 256 * 1024 }), {
  worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore',
});
let rows = 0;
let cells = 0;
for await (const worksheet of reader) {
  for await (const row of worksheet) {
    rows++;
    row.eachCell((cell) => {
      if (cell.value !== null) cells++;
    });
  }
  break;
}
console.log(rows - 1);
