import LocalCafeOutlinedIcon from '@mui/icons-material/LocalCafeOutlined';
import { Alert, Box, Button, Container, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { euro } from '../../lib/format.ts';
import { createPayinLink } from './api/merchantApi.ts';
import { BuyerFields } from './BuyerFields.tsx';
import {
  answerErrors,
  checkoutRequest,
  KEY_STORE,
  newReference,
  PRODUCTS,
  type Buyer,
  type CheckoutErrors,
  type Field,
  type ProductId,
} from './checkout.ts';
import { ProductPicker } from './ProductPicker.tsx';
import { ShopEvents } from './ShopEvents.tsx';

/**
 * /merchant-site: a small demo storefront that takes payments the way a merchant's own site would, through Obol's
 * merchant API. The shop's API key (the pair from API Keys, `public:private`) buys a token at /api/token; the
 * checkout asks /api/create-payin-link with an Idempotency-Key (a second click or a retry makes no second link) and
 * sends the buyer to the provider's hosted page, which brings them back here with the outcome. (A real shop keeps
 * its key on its server; this demo keeps it in the browser tab's session storage.) Below the checkout, the events its
 * webhook receiver heard, each signature checked.
 */
export function MerchantSitePage() {
  const [params] = useSearchParams();
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_STORE) ?? '');
  const [product, setProduct] = useState<ProductId>('beans');
  const [buyer, setBuyer] = useState<Buyer>({
    first_name: '',
    last_name: '',
    date_of_birth: '',
    user_obol_id: '',
    requested_by: '',
  });
  // a card payment the shop's staff take for the buyer (by phone, at the counter): a CardEye payment
  const [byStaff, setByStaff] = useState(false);
  const [errors, setErrors] = useState<CheckoutErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  // one key per checkout attempt: a double click or a retry answers the same link
  const [attempt, setAttempt] = useState(() => crypto.randomUUID());
  const [reference, setReference] = useState(newReference);
  const chosen = PRODUCTS.find((p) => p.id === product)!;
  const returned = useMemo(
    () => (params.get('order') ? { order: params.get('order')!, status: params.get('status') ?? '' } : null),
    [params],
  );

  const checkout = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure('');
    const { body, errors: next } = checkoutRequest({
      apiKey,
      cents: chosen.cents,
      reference,
      buyer,
      byStaff,
      origin: window.location.origin,
    });
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      sessionStorage.setItem(KEY_STORE, apiKey.trim());
      const link = await createPayinLink(apiKey.trim(), attempt, body);
      window.location.assign(link.url);
    } catch (err) {
      const fields = (err as { fields?: Record<string, string[]> }).fields ?? {};
      setErrors(answerErrors(fields));
      setFailure((err as Error).message);
      // refused (4xx): nothing was made, so the next try is a new attempt (with the details as they are then);
      // a lost answer or a 5xx keeps the key, so trying again cannot make a second link
      const status = (err as { status?: number }).status;
      if (status !== undefined && status < 500) setAttempt(crypto.randomUUID());
      // the reference was taken: a new order number
      if (fields.reference) setReference(newReference());
      setBusy(false);
    }
  };

  const edit = (name: Field, value: string) => {
    setBuyer((b) => ({ ...b, [name]: value }));
    // an edited field's message goes until the next checkout
    setErrors((x) => ({ ...x, [name]: undefined }));
  };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Container maxWidth="md" sx={{ py: 2 }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <LocalCafeOutlinedIcon color="primary" />
            <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
              Acme Coffee
            </Typography>
            <Typography variant="body2" color="textSecondary" sx={{ ml: 'auto !important' }}>
              Demo shop · payments by Obol
            </Typography>
          </Stack>
        </Container>
      </Box>
      <Container component="main" id="main" tabIndex={-1} maxWidth="md" sx={{ py: 4 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
          Checkout
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          This shop takes payments through Obol&apos;s merchant API: <code>/api/token</code>, then{' '}
          <code>/api/create-payin-link</code>, then the provider&apos;s payment page. See the{' '}
          <Link href="/api/docs" underline="always">
            API reference
          </Link>
          .
        </Typography>
        {returned ? (
          <Alert
            severity={returned.status === 'Completed' ? 'success' : 'warning'}
            sx={{ mb: 3 }}
            role="status"
            data-testid="order-result"
          >
            Order {returned.order}:{' '}
            {returned.status === 'Completed'
              ? 'paid. Thank you!'
              : `not paid (${returned.status || 'unknown'}). You can try again.`}
          </Alert>
        ) : null}
        <Paper component="form" noValidate onSubmit={checkout} sx={{ p: 3 }} aria-label="Checkout">
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            1. Choose
          </Typography>
          <ProductPicker product={product} onChange={setProduct} />
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            2. Your details
          </Typography>
          <BuyerFields
            buyer={buyer}
            errors={errors}
            cents={chosen.cents}
            byStaff={byStaff}
            onEdit={edit}
            onByStaff={setByStaff}
          />
          <Typography variant="h6" component="h2" sx={{ mt: 1, mb: 2 }}>
            3. The shop&apos;s API key
          </Typography>
          <TextField
            label="Merchant API key"
            fullWidth
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            error={!!errors.api_key}
            helperText={
              errors.api_key ??
              'The key pair from API Keys (Decrypt Keys), as public key:private key. Kept in this tab only.'
            }
            slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off' } }}
          />
          {failure ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          ) : null}
          <Stack direction="row" spacing={2} sx={{ mt: 3, alignItems: 'center' }}>
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              Pay {euro(chosen.cents)}
            </Button>
            <Typography variant="body2" color="textSecondary">
              Order {reference}
            </Typography>
          </Stack>
        </Paper>
        <ShopEvents />
      </Container>
    </Box>
  );
}
