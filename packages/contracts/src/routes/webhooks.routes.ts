import { z } from 'zod';
import {
  WebhookDelivery,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  WebhookEndpointWithSecret,
  WebhookRecoverQuery,
} from '../webhooks.ts';
import { StringIdParams } from './params.ts';
import { defineRoute } from './route.ts';

const endpointId = StringIdParams('Endpoint id');
const deliveryId = StringIdParams('Delivery id (the webhook-id header value)');
const tag = 'Webhooks';
const EndpointList = z.object({ data: z.array(WebhookEndpoint) }).meta({ id: 'WebhookEndpointList' });
const DeliveryList = z.object({ data: z.array(WebhookDelivery) }).meta({ id: 'WebhookDeliveryList' });
const endpointExample = {
  id: 'we_5f3Kq2',
  url: 'https://hooks.example.com/skiptrace',
  description: 'CRM sync',
  events: ['skiptrace.completed', 'batch.completed'],
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: '2026-01-05T14:00:00.000Z',
  updated_at: '2026-01-05T14:00:00.000Z',
  secret: 'whsec_MfKQ9r8GKYqXTu4wC3EfUHD4r6zsI5wBnB3c7Fo3tX0=',
};

export const createWebhookEndpoint = defineRoute({
  method: 'post',
  path: '/webhooks/endpoints',
  operationId: 'createWebhookEndpoint',
  summary: 'Subscribe a URL to events; the secret is shown only here and on rotation',
  tag,
  scope: 'admin',
  body: WebhookEndpointCreate,
  responses: { 201: { description: 'Created', schema: WebhookEndpointWithSecret, example: endpointExample } },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type'],
});

export const listWebhookEndpoints = defineRoute({
  method: 'get',
  path: '/webhooks/endpoints',
  operationId: 'listWebhookEndpoints',
  summary: "The account's endpoints",
  tag,
  scope: 'read',
  responses: { 200: { description: 'Endpoints', schema: EndpointList } },
  errors: [],
});

export const getWebhookEndpoint = defineRoute({
  method: 'get',
  path: '/webhooks/endpoints/{id}',
  operationId: 'getWebhookEndpoint',
  summary: 'One endpoint',
  tag,
  scope: 'read',
  params: endpointId,
  responses: { 200: { description: 'Endpoint', schema: WebhookEndpoint } },
  errors: ['invalid_parameter', 'not_found'],
});

export const updateWebhookEndpoint = defineRoute({
  method: 'patch',
  path: '/webhooks/endpoints/{id}',
  operationId: 'updateWebhookEndpoint',
  summary: 'Change the URL, events or description; enabled=false pauses, true re-enables',
  tag,
  scope: 'admin',
  params: endpointId,
  body: WebhookEndpointPatch,
  responses: { 200: { description: 'Endpoint', schema: WebhookEndpoint } },
  errors: ['validation_failed', 'invalid_json', 'unsupported_media_type', 'invalid_parameter', 'not_found'],
});

export const deleteWebhookEndpoint = defineRoute({
  method: 'delete',
  path: '/webhooks/endpoints/{id}',
  operationId: 'deleteWebhookEndpoint',
  summary: 'Remove the endpoint and its delivery log',
  tag,
  scope: 'admin',
  params: endpointId,
  responses: { 204: { description: 'Deleted' } },
  errors: ['invalid_parameter', 'not_found'],
});

export const rotateWebhookSecret = defineRoute({
  method: 'post',
  path: '/webhooks/endpoints/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  summary: 'New secret; old and new both sign for 24 h',
  tag,
  scope: 'admin',
  params: endpointId,
  responses: { 200: { description: 'Endpoint with the new secret', schema: WebhookEndpointWithSecret } },
  errors: ['invalid_parameter', 'not_found'],
});

export const testWebhookEndpoint = defineRoute({
  method: 'post',
  path: '/webhooks/endpoints/{id}/test',
  operationId: 'testWebhookEndpoint',
  summary: 'Send a test event (webhook.test)',
  tag,
  scope: 'write',
  params: endpointId,
  responses: { 202: { description: 'Queued', schema: WebhookDelivery } },
  errors: ['invalid_parameter', 'not_found', 'conflict'],
});

export const listWebhookDeliveries = defineRoute({
  method: 'get',
  path: '/webhooks/endpoints/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  summary: 'Messages, newest first, with status and every attempt',
  tag,
  scope: 'read',
  params: endpointId,
  query: WebhookDeliveryQuery,
  responses: { 200: { description: 'Deliveries', schema: DeliveryList } },
  errors: ['invalid_parameter', 'not_found'],
});

export const recoverWebhookDeliveries = defineRoute({
  method: 'post',
  path: '/webhooks/endpoints/{id}/recover',
  operationId: 'recoverWebhookDeliveries',
  summary: 'Send failed messages since a time again, with the same webhook-id',
  tag,
  scope: 'write',
  params: endpointId,
  query: WebhookRecoverQuery,
  responses: {
    202: {
      description: 'Recovering',
      schema: z.object({ recovered: z.number().int().describe('Messages scheduled again') }),
    },
  },
  errors: ['invalid_parameter', 'not_found', 'conflict'],
});

export const getWebhookDelivery = defineRoute({
  method: 'get',
  path: '/webhooks/deliveries/{id}',
  operationId: 'getWebhookDelivery',
  summary: 'One delivery with every attempt',
  tag,
  scope: 'read',
  params: deliveryId,
  responses: { 200: { description: 'Delivery', schema: WebhookDelivery } },
  errors: ['invalid_parameter', 'not_found'],
});

export const replayWebhookDelivery = defineRoute({
  method: 'post',
  path: '/webhooks/deliveries/{id}/replay',
  operationId: 'replayWebhookDelivery',
  summary: 'Send again with the same webhook-id',
  tag,
  scope: 'write',
  params: deliveryId,
  responses: { 202: { description: 'Replaying', schema: WebhookDelivery } },
  errors: ['invalid_parameter', 'not_found', 'conflict'],
});

export const webhookRoutes = [
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  testWebhookEndpoint,
  listWebhookDeliveries,
  recoverWebhookDeliveries,
  getWebhookDelivery,
  replayWebhookDelivery,
] as const;
