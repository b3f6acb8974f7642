import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { remittanceText } from './helpers/cnab240-remittance.js';
it('writes', () => {
  writeFileSync('/tmp/cnab1/REM0001.rem', remittanceText({ company: '11222333000181', generatedOn: '2026-11-27', titles: [
    { yourNumber: 'NF-1001', name: 'MARIA DA SILVA', cents: 150000, date: '2026-11-27', keyKind: '02', key: 'maria@exemplo.com.br' },
    { yourNumber: 'NF-1002', name: 'JOAO SOUZA', cents: 23456, date: '2026-11-27', keyKind: '02', key: 'joao@exemplo.com.br' },
    { yourNumber: 'NF-1003', name: 'ANA LIMA', cents: 9900, date: '2026-12-02', keyKind: '02', key: 'ana@exemplo.com.br' },
  ]}));
});
