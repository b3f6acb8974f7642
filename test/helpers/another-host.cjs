// Preloaded (node --require) into a paybatch process the several-hosts tests run as if on another host: its clock
// shifted by PAYBATCH_TEST_CLOCK_SHIFT_MS (Date.now and new Date(), as a host whose clock is off), and its host name
// PAYBATCH_TEST_HOSTNAME (so that its claims are judged as another host's: by time, not by its pid).
'use strict';
const os = require('node:os');

const shift = Number(process.env.PAYBATCH_TEST_CLOCK_SHIFT_MS || 0);
if (shift) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + shift);
      else super(...args);
    }
    static now() {
      return realNow() + shift;
    }
  }
  globalThis.Date = ShiftedDate;
}
const name = process.env.PAYBATCH_TEST_HOSTNAME;
if (name) {
  os.hostname = () => name;
  // paybatch imports it as an ES module binding: make that binding see the change.
  require('node:module').syncBuiltinESMExports();
}
