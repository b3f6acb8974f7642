import ExcelJS from 'exceljs';

/** A workbook as a finance team keeps one: a payroll on "Folha", notes on a second sheet, an empty third. */
export async function writePayroll(file: string): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const folha = wb.addWorksheet('Folha');
  folha.addRow(['chave', 'valor', 'descricao', 'documento']);
  folha.addRow(['529.982.247-25', 1250.5, 'Salário', '529.982.247-25']);
  // A CPF typed as a number: Excel keeps 1234567890 and shows no zero.
  folha.addRow([1234567890, 300, 'Zero perdido', null]);
  // The same CPF shown through a zero-padding format: the sheet shows 012.345.678-90.
  const masked = folha.addRow([1234567890, '1.234,56', 'Com máscara', null]);
  masked.getCell(1).numFmt = '000\\.000\\.000\\-00';
  // A date cell (exceljs writes it as a serial with a date format) and a bare serial given a date format.
  folha.addRow(['ana@exemplo.com', 99.9, new Date(Date.UTC(2026, 11, 5)), null]);
  const serial = folha.addRow(['bia@exemplo.com', '10,00', 46361, null]);
  serial.getCell(3).numFmt = 'dd/mm/yyyy';
  folha.addRow([]);
  folha.getRow(9).values = ['caio@exemplo.com', 0.1 + 0.2, 'Depois de linhas vazias'];
  const notas = wb.addWorksheet('Setembro');
  notas.addRow(['key', 'amount']);
  notas.addRow(['dora@example.com', 42]);
  wb.addWorksheet('Vazia');
  await wb.xlsx.writeFile(file);
}
