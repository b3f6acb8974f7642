import type { RegisterCommands } from '../../command.js';
import { boletoHelp } from '../../messages/help/boleto.js';
import { registerBoletoApprove } from '../approve.js';
import { registerBoletoDecode } from './decode.js';
import { registerBoletoDetails } from './details.js';
import { registerBoletoExport } from './export.js';
import { registerBoletoList } from './list.js';
import { registerBoletoPay } from './pay.js';
import { registerBoletoResolve } from './resolve.js';

/** `paybatch boleto decode|details|pay|approve|list|resolve|export`: one module per command. */
export const registerBoleto: RegisterCommands = (program, runner, locale) => {
  const boleto = program.command('boleto').description(boletoHelp[locale].group);
  registerBoletoDecode(boleto, runner, locale);
  registerBoletoDetails(boleto, runner, locale);
  registerBoletoPay(boleto, runner, locale);
  registerBoletoApprove(boleto, runner, locale);
  registerBoletoList(boleto, runner, locale);
  registerBoletoResolve(boleto, runner, locale);
  registerBoletoExport(boleto, runner, locale);
};
