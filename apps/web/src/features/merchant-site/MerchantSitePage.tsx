import {
  createPayinLinkRequest,
  payinLinkProblems,
  type CreatePayinLinkRequest,
  type PayinLinkResponse,
  PAYIN_MSG,
} from '@obol/contract';
import LocalCafeOutlinedIcon from '@mui/icons-material/LocalCafeOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Container,
  FormControlLabel,
  Grid,
  Link,
  Paper,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { euro } from '../../lib/format.ts';

/** What the demo shop sells: amounts in cents. */
const PRODUCTS = [
  { id: 'beans', name: 'Espresso beans, 1 kg', cents: 2_490, note: 'Roasted this week' },
  { id: 'mug', name: 'Stoneware mug', cents: 1_200, note: 'Glazed by hand' },
  { id: 'card', name: 'Gift card', cents: 5_000, note: 'Valid for a year' },
] as const;

const KEY_STORE = 'obol-demo-shop-api-key';
/** A new order number: the shop's reference of its pay-in, unique per merchant. */
const newReference = () => `shop-${Date.now().toString(36)}-${Math.floor(Math.random() * 1296).toString(36)}`;
const FIELDS = ['first_name', 'last_name', 'date_of_birth', 'user_obol_id', 'requested_by'] as const;
type Field = (typeof FIELDS)[number];
/** The shop's loyalty offer: this share of the order back to the buyer's Obol wallet, as a pay-in reward. */
const CASHBACK_PERCENT = 5;
const cashbackOf = (cents: number) => Math.floor((cents * CASHBACK_PERCENT) / 100);

/** The answer of a merchant API call, or its error as the API says it. */
async function post<T>(path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as T & { error?: string[]; fields?: Record<string, string[]> };
  if (!res.ok)
    throw Object.assign(new Error(json.error?.[0] ?? `HTTP ${res.status}`), {
      fields: json.fields,
      status: res.status,
    });
  return json as T;
}

/**
 * /merchant-site: a small demo storefront that takes payments the way a merchant's own site would, through Obol's
 * merchant API. The shop's API key (the pair from API Keys, `public:private`) buys a token at /api/token; the
 * checkout asks /api/create-payin-link with an Idempotency-Key (a second click or a retry makes no second link) and
 * sends the buyer to the provider's hosted page, which brings them back here with the outcome. (A real shop keeps
 * its key on its server; this demo keeps it in the browser tab's session storage.)
 */
export function MerchantSitePage() {
  const [params] = useSearchParams();
  const [apiKey, setApiKey] = useState(() => sessionStorage.getItem(KEY_STORE) ?? '');
  const [product, setProduct] = useState<(typeof PRODUCTS)[number]['id']>('beans');
  const [buyer, setBuyer] = useState<Record<Field, string>>({
    first_name: '',
    last_name: '',
    date_of_birth: '',
    user_obol_id: '',
    requested_by: '',
  });
  // a card payment the shop's staff take for the buyer (by phone, at the counter): a CardEye payment
  const [byStaff, setByStaff] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field | 'api_key', string>>>({});
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
    const next: typeof errors = {};
    if (!/^[^:\s]+:[^:\s]+$/.test(apiKey.trim())) next.api_key = PAYIN_MSG.apiKeyMissing;
    const wallet = buyer.user_obol_id.trim();
    const body: CreatePayinLinkRequest = {
      amount: chosen.cents,
      reference,
      first_name: buyer.first_name,
      last_name: buyer.last_name,
      date_of_birth: buyer.date_of_birth,
      return_url: `${window.location.origin}/merchant-site?order=${encodeURIComponent(reference)}`,
      ...(wallet ? { user_obol_id: wallet, reward_amount: cashbackOf(chosen.cents) } : {}),
      ...(byStaff ? { channel: 'CardEye' as const, requested_by: buyer.requested_by } : {}),
    };
    const parsed = createPayinLinkRequest.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const f = issue.path[0] as Field;
        if (FIELDS.includes(f) && !next[f]) next[f] = issue.message;
      }
    const problems = payinLinkProblems({
      amount: chosen.cents,
      channel: byStaff ? 'CardEye' : 'Payin',
      requested_by: buyer.requested_by.trim() || undefined,
      user_obol_id: wallet || undefined,
      reward_amount: wallet ? cashbackOf(chosen.cents) : undefined,
    });
    for (const p of problems) {
      const f = p.field as Field;
      if (FIELDS.includes(f) && !next[f]) next[f] = p.message;
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      sessionStorage.setItem(KEY_STORE, apiKey.trim());
      const { access_token } = await post<{ access_token: string }>('/api/token', { 'x-api-key': apiKey.trim() });
      const link = await post<PayinLinkResponse>(
        '/api/create-payin-link',
        { authorization: `Bearer ${access_token}`, 'idempotency-key': attempt },
        body,
      );
      window.location.assign(link.url);
    } catch (err) {
      const fields = (err as { fields?: Record<string, string[]> }).fields ?? {};
      const byField: typeof errors = {};
      for (const f of FIELDS) if (fields[f]) byField[f] = fields[f][0];
      setErrors(byField);
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

  const field = (name: Field, label: string, extra: object = {}) => (
    <TextField
      label={label}
      fullWidth
      value={buyer[name]}
      onChange={(e) => {
        setBuyer((b) => ({ ...b, [name]: e.target.value }));
        // an edited field's message goes until the next checkout
        setErrors((x) => ({ ...x, [name]: undefined }));
      }}
      error={!!errors[name]}
      helperText={errors[name] ?? ' '}
      {...extra}
    />
  );

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
        <Container maxWidth="md" sx={{ py: 2 }}>
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            <LocalCafeOutlinedIcon color="primary" />
            <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
              Acme Coffee
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto !important' }}>
              Demo shop · payments by Obol
            </Typography>
          </Stack>
        </Container>
      </Box>
      <Container component="main" id="main" tabIndex={-1} maxWidth="md" sx={{ py: 4 }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
          Checkout
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
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
          <Grid container spacing={2} sx={{ mb: 3 }} role="radiogroup" aria-label="Product">
            {PRODUCTS.map((p) => (
              <Grid key={p.id} size={{ xs: 12, sm: 4 }}>
                <Card
                  variant="outlined"
                  sx={{
                    borderColor: p.id === product ? 'primary.main' : 'divider',
                    borderWidth: p.id === product ? 2 : 1,
                  }}
                >
                  <CardActionArea role="radio" aria-checked={p.id === product} onClick={() => setProduct(p.id)}>
                    <CardContent>
                      <Typography sx={{ fontWeight: 600 }}>{p.name}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {p.note}
                      </Typography>
                      <Typography variant="h6" component="p" sx={{ mt: 1, fontVariantNumeric: 'tabular-nums' }}>
                        {euro(p.cents)}
                      </Typography>
                    </CardContent>
                  </CardActionArea>
                </Card>
              </Grid>
            ))}
          </Grid>
          <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
            2. Your details
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>{field('first_name', 'First name', { autoComplete: 'given-name' })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{field('last_name', 'Last name', { autoComplete: 'family-name' })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {field('date_of_birth', 'Date of birth', {
                type: 'date',
                slotProps: { inputLabel: { shrink: true }, htmlInput: { max: new Date().toISOString().slice(0, 10) } },
              })}
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              {field('user_obol_id', `Obol wallet for ${CASHBACK_PERCENT}% cashback (optional)`, {
                slotProps: { htmlInput: { inputMode: 'numeric', autoComplete: 'off' } },
                helperText:
                  errors.user_obol_id ??
                  (buyer.user_obol_id.trim()
                    ? `${euro(cashbackOf(chosen.cents))} back to this wallet once paid`
                    : 'Your 9-digit Obol ID'),
              })}
            </Grid>
          </Grid>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <FormControlLabel
              control={<Switch checked={byStaff} onChange={(e) => setByStaff(e.target.checked)} />}
              label="Card payment taken by our staff (CardEye)"
              sx={{ minWidth: 280, mt: 1 }}
            />
            {byStaff ? (
              <Box sx={{ flex: 1 }}>{field('requested_by', 'Staff member or till', { autoComplete: 'off' })}</Box>
            ) : null}
          </Stack>
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
            <Typography variant="body2" color="text.secondary">
              Order {reference}
            </Typography>
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
