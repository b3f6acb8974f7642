// Valid bill codes for the scenarios (FEBRABAN layouts), self-contained: the simulation makes its own test data.

function mod10(digits) {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

function mod11Bank(digits) {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const result = 11 - (sum % 11);
  return result === 0 || result === 10 || result === 11 ? 1 : result;
}

/** The due-date factor of a YYYY-MM-DD date, with the 2025-02-22 restart at 1000. */
function factor(dueDate) {
  const days = Math.round((Date.parse(`${dueDate}T00:00:00Z`) - Date.UTC(1997, 9, 7)) / 86_400_000);
  return days < 1000 ? days : 1000 + ((days - 1000) % 9000);
}

/** A bank slip's 47-digit line: bank (3 digits), due date, amount in centavos, the bank's 25-digit free field. */
export function bankSlipLine({ bank, dueDate, cents, free }) {
  const body = `${bank}9` + String(factor(dueDate)).padStart(4, '0') + String(cents).padStart(10, '0') + free;
  const barcode = body.slice(0, 4) + String(mod11Bank(body)) + body.slice(4);
  const f1 = barcode.slice(0, 4) + free.slice(0, 5);
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  return { barcode, line: `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${barcode.slice(4, 5)}${barcode.slice(5, 19)}` };
}

/** A collection slip's 48-digit line (value identifier 6: a real amount, modulo 10), segment, company code (4 digits). */
export function collectionSlipLine({ segment, cents, company, free }) {
  const body = `8${segment}6` + String(cents).padStart(11, '0') + company + free;
  const barcode = body.slice(0, 3) + String(mod10(body)) + body.slice(3);
  let line = '';
  for (let block = 0; block < 4; block++) {
    const digits = barcode.slice(block * 11, block * 11 + 11);
    line += digits + String(mod10(digits));
  }
  return { barcode, line };
}
