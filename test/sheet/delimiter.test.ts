import { describe, expect, it } from 'vitest';
import { detectDelimiter, takeSepLine } from '../../src/sheet/delimiter.js';

describe('detectDelimiter', () => {
  it.each([
    ['semicolon', 'chave;valor;descricao\n1;2;3\n', ';'],
    ['comma', 'key,amount,description\n', ','],
    ['tab', 'key\tamount\tdescription\n', '\t'],
    ['semicolon with commas in the data lines', 'chave;valor\nx;1,50\n', ';'],
    ['comma when quoted header names hold semicolons', '"a;b";"c;d",key,amount\n', ','],
    ['semicolon when quoted header names hold commas', '"Valor, em R$";"Chave, Pix";x\n', ';'],
    ['the first line with content, after blank lines', '\n\n  \nkey\tamount\n', '\t'],
    ['a header line, not data below it', 'chave;valor\n1,2,3,4,5,6\n', ';'],
    ['a quoted header cell with a line break', '"Chave\nPix";"Valor";x\na,b,c,d,e\n', ';'],
    ['semicolon on a tie with comma', 'a;b,c\n', ';'],
    ['semicolon for a single column', 'chave\n', ';'],
  ])('%s', (_name, text, expected) => {
    expect(detectDelimiter(text)).toBe(expected);
  });
});

describe('takeSepLine', () => {
  it('takes Excel\'s sep= line and blanks it, keeping line numbers', () => {
    expect(takeSepLine('sep=,\nkey,amount\n')).toEqual({ delimiter: ',', text: '\nkey,amount\n' });
    expect(takeSepLine('SEP=;\nchave;valor\n')).toEqual({ delimiter: ';', text: '\nchave;valor\n' });
    expect(takeSepLine('sep=\t\nkey\tamount\n')).toEqual({ delimiter: '\t', text: '\nkey\tamount\n' });
  });

  it('leaves other text alone', () => {
    expect(takeSepLine('chave;valor\n')).toEqual({ delimiter: null, text: 'chave;valor\n' });
    expect(takeSepLine('separador;valor\n')).toEqual({ delimiter: null, text: 'separador;valor\n' });
  });
});
