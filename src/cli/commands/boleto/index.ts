import type { RegisterCommands } from '../../command.js';
import { registerBoletoApprove } from '../approve.js';
import { registerBoletoDecode } from './decode.js';
import { registerBoletoDetails } from './details.js';
import { registerBoletoList } from './list.js';
import { registerBoletoPay } from './pay.js';
import { registerBoletoResolve } from './resolve.js';

/** `paybatch boleto decode|details|pay|approve|list|resolve`: one module per command. */
export const registerBoleto: RegisterCommands = (program, runner) => {
  const boleto = program.command('boleto').description('decode, inspect and pay bills (boletos, utility and government bills)');
  registerBoletoDecode(boleto, runner);
  registerBoletoDetails(boleto, runner);
  registerBoletoPay(boleto, runner);
  registerBoletoApprove(boleto, runner);
  registerBoletoList(boleto, runner);
  registerBoletoResolve(boleto, runner);
};
