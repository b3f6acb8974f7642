import type { AlertChannel } from './alert-channel.js';
import { commandChannel } from './command-channel.js';
import { emailChannel } from './email-channel.js';
import { webhookChannel } from './webhook-channel.js';

/** Every alert channel, in the order their results are reported. A new channel is its own module and a line here. */
export const ALERT_CHANNELS: readonly AlertChannel[] = [webhookChannel, emailChannel, commandChannel];
