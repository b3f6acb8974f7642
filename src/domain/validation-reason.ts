/** Why an amount in reais is refused (`parseAmount`); `text` is the amount as given, spaces tidied. */
export type AmountReason =
  | { readonly code: 'amount_empty' }
  | { readonly code: 'amount_negative'; readonly text: string }
  | { readonly code: 'amount_no_digits' }
  | { readonly code: 'amount_characters'; readonly text: string }
  | { readonly code: 'amount_space'; readonly text: string }
  | { readonly code: 'amount_mark_twice'; readonly text: string; readonly mark: string }
  | { readonly code: 'amount_misplaced_group'; readonly text: string; readonly mark: string }
  | { readonly code: 'amount_digit_before_mark'; readonly text: string; readonly mark: string; readonly fraction: string }
  | { readonly code: 'amount_ambiguous_mark'; readonly text: string; readonly mark: string; readonly whole: string; readonly fraction: string }
  | { readonly code: 'amount_no_decimals'; readonly text: string }
  | { readonly code: 'amount_too_many_decimals'; readonly text: string }
  | { readonly code: 'amount_zero' }
  | { readonly code: 'amount_too_large'; readonly text: string };

/** Why a CPF is refused; `zerosLost`: shorter than 11 digits, as a spreadsheet storing it as a number leaves it. */
export type CpfReason =
  | { readonly code: 'cpf_empty' }
  | { readonly code: 'cpf_characters' }
  | { readonly code: 'cpf_length'; readonly length: number; readonly zerosLost: boolean }
  | { readonly code: 'cpf_all_equal' }
  | { readonly code: 'cpf_check_digits'; readonly expected: string };

/** Why a CNPJ is refused; `zerosLost`: numeric and shorter than 14, as a spreadsheet storing it as a number leaves it. */
export type CnpjReason =
  | { readonly code: 'cnpj_empty' }
  | { readonly code: 'cnpj_characters' }
  | { readonly code: 'cnpj_length'; readonly length: number; readonly zerosLost: boolean }
  | { readonly code: 'cnpj_digits_at_end' }
  | { readonly code: 'cnpj_all_equal' }
  | { readonly code: 'cnpj_check_digits'; readonly expected: string };

/** Why a payee document is refused: as a CPF or CNPJ (by its length), or neither. */
export type DocumentReason =
  | CpfReason
  | CnpjReason
  | { readonly code: 'document_empty' }
  | { readonly code: 'document_length'; readonly length: number };

/** Why a mobile number (a phone Pix key) is refused. */
export type PhoneReason =
  | { readonly code: 'phone_empty' }
  | { readonly code: 'phone_characters' }
  | { readonly code: 'phone_foreign' }
  | { readonly code: 'phone_length'; readonly digits: number }
  | { readonly code: 'phone_area_code'; readonly areaCode: string }
  | { readonly code: 'phone_landline' }
  | { readonly code: 'phone_eight_digits' }
  | { readonly code: 'phone_not_mobile' };

/** Why an e-mail Pix key is refused (the DICT rule, part by part). */
export type EmailReason =
  | { readonly code: 'email_empty' }
  | { readonly code: 'email_length'; readonly length: number; readonly max: number }
  | { readonly code: 'email_no_at' }
  | { readonly code: 'email_two_ats' }
  | { readonly code: 'email_no_local' }
  | { readonly code: 'email_quoted' }
  | { readonly code: 'email_local_character'; readonly character: string }
  | { readonly code: 'email_no_domain' }
  | { readonly code: 'email_empty_label'; readonly domain: string }
  | { readonly code: 'email_long_label'; readonly start: string }
  | { readonly code: 'email_label_hyphen'; readonly label: string }
  | { readonly code: 'email_label_characters'; readonly label: string };

/** Why a random key (EVP) is refused. */
export type EvpReason = { readonly code: 'evp_shape' };

/** Why a text is refused as a key of one type (what that type's normalizer says). */
export type KeyTypeReason = CpfReason | CnpjReason | PhoneReason | EmailReason | EvpReason;

/**
 * Why a Pix key is refused (`checkPixKey`): empty, no key's shape, an 11-digit text that is neither a CPF nor a
 * mobile number (with both reasons), or invalid as the type given or detected (with that type's reason).
 */
export type KeyReason =
  | { readonly code: 'key_empty' }
  | { readonly code: 'key_unknown' }
  | { readonly code: 'key_neither'; readonly cpf: CpfReason; readonly phone: PhoneReason }
  // The type is pix-key.ts's PixKeyType, spelt out: pix-key.ts imports these reasons.
  | { readonly code: 'key_invalid_as'; readonly type: 'cpf' | 'cnpj' | 'phone' | 'email' | 'evp'; readonly reason: KeyTypeReason };

/** Every reason the domain's validators give: a code and its data, put into words at the edge (src/words/validation.ts). */
export type ValidationReason = AmountReason | DocumentReason | PhoneReason | EmailReason | EvpReason | KeyReason;

export type ValidationCode = ValidationReason['code'];
