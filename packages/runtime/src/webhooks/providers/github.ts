/** GitHub: `@octokit/webhooks-methods` `verify` checks X-Hub-Signature-256; the key is X-GitHub-Delivery. */
import { InvalidOptionsError } from '../../core/errors.js';
import { bodyText, parseJson, requiredHeader, WebhookVerificationError, type WebhookProvider } from '../webhook-event.js';

/** `verify` from `@octokit/webhooks-methods` (or `verifyWithFallback` bound to your old secrets). */
export type OctokitVerifyLike = (secret: string, payload: string, signature: string) => Promise<boolean>;

export interface GitHubProviderOptions {
  readonly verify: OctokitVerifyLike;
  readonly secret: string;
  /**
   * Scope when no `X-GitHub-Hook-Installation-Target-ID` header is sent. Default `github`.
   * With the header, the scope is `github-<target type>-<id>` (the repository, org or app).
   */
  readonly account?: string;
}

/**
 * The GitHub provider. GitHub sends no event time: `createdAt` is null, so ordering decisions use
 * the payload (e.g. `head_commit.timestamp`, `updated_at`).
 * @example import { verify } from '@octokit/webhooks-methods'; githubProvider({ verify, secret: process.env.GITHUB_WEBHOOK_SECRET! })
 */
export function githubProvider<P = unknown>({ verify, secret, account = 'github' }: GitHubProviderOptions): WebhookProvider<P> {
  if (typeof verify !== 'function') throw new InvalidOptionsError('Option "verify" must be verify from @octokit/webhooks-methods.');
  if (typeof secret !== 'string' || secret.length === 0) throw new InvalidOptionsError('Option "secret" must be the webhook secret.');
  return {
    name: 'github',
    async verify(request) {
      const signature = requiredHeader(request, 'x-hub-signature-256');
      const delivery = requiredHeader(request, 'x-github-delivery');
      const payload = bodyText(request);
      let valid: boolean;
      try {
        valid = await verify(secret, payload, signature);
      } catch (error) {
        throw new WebhookVerificationError('The X-Hub-Signature-256 is malformed.', { cause: error });
      }
      if (!valid) throw new WebhookVerificationError('The X-Hub-Signature-256 does not verify.');
      const target = request.headers['x-github-hook-installation-target-id'];
      const targetType = request.headers['x-github-hook-installation-target-type'] ?? 'target';
      return [
        {
          provider: 'github',
          id: delivery,
          type: request.headers['x-github-event'] ?? 'unknown',
          account: target ? `github-${targetType}-${target}`.replace(/\s/g, '-') : account,
          createdAt: null,
          payload: parseJson(payload) as P,
        },
      ];
    },
  };
}
