import { webhookOps, type InputOf } from '@obol/contract';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

/** The caller's webhook endpoints (never their secrets). */
export const webhookEndpointsQuery = () =>
  queryOptions({ queryKey: ['webhook-endpoints'], queryFn: () => call(webhookOps.webhookEndpoints) });

/** The delivery log of one endpoint: every attempt, newest first. */
export const webhookDeliveriesQuery = (input: InputOf<typeof webhookOps.webhookDeliveries>) =>
  queryOptions({
    queryKey: ['webhook-deliveries', input],
    queryFn: () => call(webhookOps.webhookDeliveries, input),
  });

/** Adds an endpoint; the answer carries its signing secret, once. */
export const createWebhookEndpoint = (input: InputOf<typeof webhookOps.createWebhookEndpoint>) =>
  call(webhookOps.createWebhookEndpoint, input);
export const deleteWebhookEndpoint = (id: number) => call(webhookOps.deleteWebhookEndpoint, { id });
/** A new signing secret, once; the previous one signs for 24 hours more. */
export const rotateWebhookSecret = (id: number) => call(webhookOps.rotateWebhookSecret, { id });
export const resendWebhook = (deliveryId: number) => call(webhookOps.resendWebhook, { delivery_id: deliveryId });
