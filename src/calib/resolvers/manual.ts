import Type from 'typebox';
import { defineResolver } from './define.js';

export default defineResolver({
  type: 'manual',
  rule: 'the agent reports the outcome with record_outcome (a self-reported outcome); unreported at expected_resolution_at, the claim expires.',
  config: Type.Object({}, { additionalProperties: false }),
});
