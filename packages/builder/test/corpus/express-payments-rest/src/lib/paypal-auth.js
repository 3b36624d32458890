import axios from 'axios';

export const base = process.env.PAYPAL_API ?? 'https://api-m.sandbox.paypal.com';

export async function accessToken() {
  const auth = Buffer.from(`${process.env.PAYPAL_CLIENT_ID}:${process.env.PAYPAL_CLIENT_SECRET}`).toString('base64');
  const response = await fetch(`${base}/v1/oauth2/token`, {
    method: 'POST',
    body: 'grant_type=client_credentials',
    headers: { Authorization: `Basic ${auth}` },
  });
  return (await response.json()).access_token;
}

export async function captureAuthorization(authorizationId, token) {
  const { data } = await axios.post(`${base}/v2/payments/authorizations/${authorizationId}/capture`, {}, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return data;
}
