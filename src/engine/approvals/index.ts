/** Approvals (maker-checker): the policy, the approvals recorded, and the gate that money-moving steps pass. The one module the rest of paybatch imports of this feature. */
export * from './approvals.js';
