// Imported first by main.tsx, before any zod schema is made (the contract's are made as it is imported).
// The Content-Security-Policy has no 'unsafe-eval': zod must neither compile its fast object parsers with
// `new Function` nor probe whether it may, for the browser reports even the probe as a policy violation.
import { z } from 'zod';

z.config({ jitless: true });
