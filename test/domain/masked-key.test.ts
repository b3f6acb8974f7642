import { describe, expect, it } from 'vitest';
import { maskPixKey } from '../../src/domain/masked-key.js';

describe('Pix keys as receipts show them', () => {
  it('shows only the middle six digits of a CPF', () => {
    expect(maskPixKey('52998224725', 'cpf')).toBe('***.982.247-**');
    expect(maskPixKey('12345678909', 'cpf')).toBe('***.456.789-**');
  });

  it('shows a CNPJ in full, numeric or alphanumeric', () => {
    expect(maskPixKey('11222333000181', 'cnpj')).toBe('11.222.333/0001-81');
    expect(maskPixKey('12ABC34501DE35', 'cnpj')).toBe('12.ABC.345/01DE-35');
  });

  it('shows the area code and the last four digits of a phone', () => {
    expect(maskPixKey('+5511987654321', 'phone')).toBe('+55 (11) *****-4321');
    expect(maskPixKey('+5521991234567', 'phone')).toBe('+55 (21) *****-4567');
  });

  it("shows two letters of an e-mail's name and one of its domain, with the domain's suffix", () => {
    expect(maskPixKey('fulano.silva@empresa.com.br', 'email')).toBe('fu***@e***.com.br');
    expect(maskPixKey('ana@x.com', 'email')).toBe('an***@x***.com');
    expect(maskPixKey('jo@gmail.com', 'email')).toBe('j***@g***.com');
    expect(maskPixKey('a@localhost', 'email')).toBe('a***@l***');
  });

  it("shows a random key's first group and last four characters", () => {
    expect(maskPixKey('123e4567-e89b-12d3-a456-426614174000', 'evp')).toBe('123e4567-****-****-****-********4000');
  });

  it('shows no more than the last four characters of a key not in its normalized form', () => {
    expect(maskPixKey('529.982.247-25', 'cpf')).toBe('***7-25');
    expect(maskPixKey('(11) 98765-4321', 'phone')).toBe('***4321');
    expect(maskPixKey('not-an-email', 'email')).toBe('***mail');
    expect(maskPixKey('1234', 'evp')).toBe('***');
  });
});
