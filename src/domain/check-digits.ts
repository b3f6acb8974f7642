/**
 * Check digits of Brazilian payment slips (FEBRABAN), CPF and CNPJ. Every function takes a string of decimal digits
 * (no separators; a CNPJ may have letters) and returns the check digit, 0..9, that protects it.
 */

const digitAt = (digits: string, index: number): number => digits.charCodeAt(index) - 48;

/**
 * Modulo 10, weights 2,1,2,1… from the right; a product above 9 counts as the sum of its two digits.
 * Check digit = 10 - (sum mod 10), and 0 when that is 10. Used by the three first fields of a bank-slip line
 * and by collection slips whose value identifier is 6 or 7.
 */
export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = digitAt(digits, i) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Sum of the characters, each worth its character code − 48 (a digit its value; a letter of an alphanumeric CNPJ
 * what the Receita Federal gives it), weighted 2, 3, … from the right and modulo 11. The weights go back to 2 after
 * `maxWeight`: 9 for slips and CNPJ; a CPF's never do (up to 11), so it passes Infinity.
 */
export function mod11Remainder(chars: string, maxWeight = 9): number {
  let sum = 0;
  let weight = 2;
  for (let i = chars.length - 1; i >= 0; i--) {
    sum += digitAt(chars, i) * weight;
    weight = weight === maxWeight ? 2 : weight + 1;
  }
  return sum % 11;
}

/**
 * Modulo 11 of the bank-slip barcode (general check digit, position 5): weights 2..9 from the right,
 * check digit = 11 - remainder, and 1 when that gives 0, 10 or 11 (a bank barcode never carries a 0 there).
 */
export function mod11Bank(digits: string): number {
  const result = 11 - mod11Remainder(digits);
  return result === 0 || result === 10 || result === 11 ? 1 : result;
}

/**
 * Modulo 11 of CPF, CNPJ and collection slips (arrecadação, value identifier 8 or 9): remainder 0 or 1 gives 0,
 * otherwise 11 - remainder (so remainder 10 gives 1, as the FEBRABAN layout states it). (Some libraries apply the
 * bank rule to collection slips, turning remainder 0/1 into 1; real utility bills refute that.)
 */
export function mod11(chars: string, maxWeight = 9): number {
  const remainder = mod11Remainder(chars, maxWeight);
  return remainder < 2 ? 0 : 11 - remainder;
}
