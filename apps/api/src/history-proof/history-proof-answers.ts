import { z } from 'zod';

export const publicKeyAnswer = {
  mediaType: 'application/x-pem-file',
  schema: z.string().describe('-----BEGIN PUBLIC KEY----- ... (Ed25519)'),
};

export const historyProofAnswer = z.object({
  chained: z.boolean(),
  checkpoint: z
    .object({
      position: z.string(),
      time: z.string(),
      key: z.string().describe('SHA-256 of the public key (DER), hex'),
      reason: z.enum(['events', 'hour', 'on-demand', 'export', 'new-key', 'rechain']),
    })
    .nullable(),
  organizationCovered: z.boolean(),
  failure: z.object({ position: z.string(), reason: z.string(), at: z.string() }).nullable(),
});
