import { cnpjCheckDigits } from '../../src/domain/cnpj.js';
import { cpfCheckDigits } from '../../src/domain/cpf.js';

/** A valid CPF from a 9-digit base. */
export const cpf = (base9: string): string => base9 + cpfCheckDigits(base9);
/** A valid CNPJ from a 12-character base. */
export const cnpj = (base12: string): string => base12 + cnpjCheckDigits(base12);
/** The n-th of many distinct valid CPFs that exist in the sandbox's directory. */
export const nthCpf = (n: number): string => cpf(String(100_000_001 + n * 7).slice(0, 9));
