/** Approvals (maker-checker): the policy, the approvals recorded, and the gate that money-moving steps pass. The one module the rest of paybatch imports of this feature. */
export * from './approval-check.js';
export * from './gate.js';
export * from './pending-approvals.js';
export * from './signing.js';
