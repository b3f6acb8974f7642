/**
 * Who a Pix key pays (SPEC.md "Destination (`to`) object"): what the key lookup answers and what an item carries in
 * `to`. Every field is a string; one the provider leaves out is ''. Shared by the client and the sandbox.
 */
export interface Destination {
  accountType: string;
  branch: string;
  key: string;
  accountNumber: string;
  institutionName: string;
  document: string;
  /** Type of the Pix key, e.g. `phone`. */
  type: string;
  /** Institution identifier (ISPB or similar). */
  institution: string;
  name: string;
}
